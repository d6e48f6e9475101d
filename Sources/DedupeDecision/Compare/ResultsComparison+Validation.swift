import DedupeWorkloads
import DedupeHarness
import Foundation

extension ResultsComparison {
    /// The first reason `results` cannot be compared, or `nil`: a file from before timing forks,
    /// a fork count below 1, a timed case with no samples, a case timed in other forks than the
    /// run's or whose samples do not split into them, a sample, median or ratio that is not a
    /// positive finite number (a hand-edited or truncated file), any number outside its schema's
    /// range (``rangeProblem(in:)``), or two timed cases with the same key. A zero median would
    /// make every change infinite, an empty sample set has no test, and a duplicated case would
    /// count twice in its units or silently replace the other copy.
    ///
    /// A case is named by its place in the file, as every message names it (`cases[3]`), with
    /// its id.
    ///
    /// - Complexity: O(numbers in the file).
    package static func inputProblem(in results: RunResults) -> String? {
        let timed = results.cases.contains { $0.timing != nil }
        guard timed else { return "no case has timing (was it run with timing?)" }
        guard let forks = results.settings.forks else {
            return "the results have no timing forks (made by a build before forks); rerun it with this build"
        }
        guard forks >= 1 else { return "settings.forks is \(forks) (expected at least 1 timing fork)" }
        for (index, result) in results.cases.enumerated() {
            guard let timing = result.timing else { continue }
            let path = "cases[\(index)]"
            let name = "\(path) (\(MessageText.clipped(result.id.text)))"
            guard let caseForks = timing.forks else {
                return "\(name) has no timing.forks (expected the run's \(forks), settings.forks)"
            }
            guard caseForks >= 1 else { return "\(path).timing.forks is \(caseForks) (expected at least 1 timing fork)" }
            // Every case of a run is timed in the run's forks, so its samples and the reference's
            // pair up fork by fork.
            guard caseForks == forks else {
                return "\(name) was timed in \(caseForks) fork(s) and the run in \(forks) (settings.forks); "
                    + "every case is timed in the run's forks"
            }
            let samples = timing.samplesNanosecondsPerEvent
            guard !samples.isEmpty else { return "\(name) has timing but no samples" }
            if let position = samples.firstIndex(where: { !($0.isFinite && $0 > 0) }) {
                return "\(name): timing.samplesNanosecondsPerEvent[\(position)] is \(samples[position]) ns/event "
                    + "(expected a positive finite number)"
            }
            guard timing.medianNanosecondsPerEvent.isFinite && timing.medianNanosecondsPerEvent > 0 else {
                return "\(name): timing.medianNanosecondsPerEvent is \(timing.medianNanosecondsPerEvent) ns/event "
                    + "(expected a positive finite number)"
            }
            guard samples.count % forks == 0 else {
                return "\(name): its \(samples.count) sample(s) do not split evenly into the run's \(forks) fork(s)"
            }
            let ratios = timing.ratiosToReference
            guard ratios.isEmpty || ratios.count == samples.count else {
                return "\(name): \(ratios.count) ratio(s) to the reference for \(samples.count) sample(s)"
            }
            if let position = ratios.firstIndex(where: { !($0.isFinite && $0 > 0) }) {
                return "\(name): timing.samplesNanosecondsPerEvent[\(position)] over the reference's is \(ratios[position]) "
                    + "(expected a positive finite ratio)"
            }
        }
        if let problem = rangeProblem(in: results) { return problem }
        return duplicateProblem(in: results, key: \.id)
    }

    /// Why `results` has a timed case twice under `key` (the identity `compare` matches cases
    /// by), or `nil`. The key is a parameter so the check and the matching cannot use two
    /// identities.
    ///
    /// - Complexity: O(cases).
    static func duplicateProblem<Key: Hashable & CustomStringConvertible>(in results: RunResults, key: (CaseResult) -> Key) -> String? {
        var first: [Key: Int] = [:]
        for (index, result) in results.cases.enumerated() where result.timing != nil {
            let identity = key(result)
            if let earlier = first[identity] {
                return "cases[\(earlier)] and cases[\(index)] are the same timed case (\(MessageText.clipped(identity.description))); "
                    + "a duplicated case cannot be gated"
            }
            first[identity] = index
        }
        return nil
    }

    /// Why `baseline` and `current` cannot be compared at all, or `nil`: different results
    /// schemas, run settings that make the timings incomparable (quick against full, another
    /// seed, window length, trace, build configuration or timing reference), no timed case in
    /// common, or too few forks on a side for the rule to ever reach significance.
    package static func pairProblem(baseline: RunResults, current: RunResults, rule: Rule = Rule()) -> String? {
        guard baseline.schemaVersion == current.schemaVersion else {
            return "the files have different results schemas (\(baseline.schemaVersion) and \(current.schemaVersion))"
        }
        func differs<T: Equatable>(_ name: String, _ path: (RunResults) -> T) -> String? {
            let before = path(baseline)
            let after = path(current)
            return before == after ? nil
                : "\(name) differs (\(MessageText.clipped("\(before)")) in the baseline, \(MessageText.clipped("\(after)")) now), "
                    + "so the timings are not comparable"
        }
        let settings: [String?] = [
            differs("quick mode") { $0.settings.quick },
            differs("seed") { $0.environment.seed },
            differs("window length (ms)") { $0.settings.windowMilliseconds },
            differs("trace") { $0.settings.traceFile ?? "none" },
            differs("build configuration") { $0.environment.buildConfiguration },
            // The ratios, and which rows are references, are against it.
            differs("timing reference") { $0.settings.timingReference ?? "published" },
        ]
        if let problem = settings.compactMap({ $0 }).first { return problem }
        let currentKeys = Set(current.cases.filter { $0.timing != nil }.map(\.id))
        guard baseline.cases.contains(where: { $0.timing != nil && currentKeys.contains($0.id) }) else {
            return "no timed case is in both files (other filters or parameters?)"
        }
        let baselineForks = baseline.settings.forks ?? 0
        let currentForks = current.settings.forks ?? 0
        if baselineForks < 2 || currentForks < 2
            || HodgesLehmann.rankOfLowerBound(baselineForks, currentForks, confidence: 1 - rule.alpha) == 0 {
            return "too few forks to reach significance: \(baselineForks) in the baseline and \(currentForks) now give no "
                + "\(rule.confidencePercent)% interval; run both with at least \(minimumForks(alpha: rule.alpha)) forks (--forks)"
        }
        return nil
    }

    /// The fewest forks per side (equal on both) for which an interval at confidence 1 − `alpha` exists.
    static func minimumForks(alpha: Double) -> Int {
        (2...64).first { HodgesLehmann.rankOfLowerBound($0, $0, confidence: 1 - alpha) > 0 } ?? 64
    }
}
