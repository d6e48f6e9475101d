import DedupeHarness
import Foundation

extension ResultsComparison {
    /// The first reason `results` cannot be compared, or `nil`: a file from before timing forks,
    /// a fork count below 1, a timed case with no samples, samples that do not split into the
    /// run's forks, a sample, median or ratio that is not a positive finite number (a hand-edited
    /// or truncated file), any number outside its schema's range (``rangeProblem(in:)``), or
    /// two timed cases with the same key. A zero median would make every change infinite, an
    /// empty sample set has no test, and a duplicated case would count twice in its units or
    /// silently replace the other copy.
    ///
    /// - Complexity: O(numbers in the file).
    public static func inputProblem(in results: RunResults) -> String? {
        let timed = results.cases.contains { $0.timing != nil }
        guard timed else { return "no case has timing (was it run with timing?)" }
        guard let forks = results.settings.forks else {
            return "the results have no timing forks (made by a build before forks); rerun it with this build"
        }
        guard forks >= 1 else { return "settings.forks is \(forks) (expected at least 1 timing fork)" }
        for (index, result) in results.cases.enumerated() {
            guard let timing = result.timing else { continue }
            let name = "case \(index + 1) (\(MessageText.clipped(result.id.text)))"
            if let caseForks = timing.forks, caseForks < 1 {
                return "cases[\(index)].timing.forks is \(caseForks) (expected at least 1 timing fork)"
            }
            let samples = timing.samplesNanosecondsPerEvent
            guard !samples.isEmpty else { return "\(name) has timing but no samples" }
            if let position = samples.firstIndex(where: { !($0.isFinite && $0 > 0) }) {
                return "\(name): sample \(position + 1) is \(samples[position]) ns/event (expected a positive finite number)"
            }
            guard timing.medianNanosecondsPerEvent.isFinite && timing.medianNanosecondsPerEvent > 0 else {
                return "\(name): median is \(timing.medianNanosecondsPerEvent) ns/event (expected a positive finite number)"
            }
            guard timing.forks == forks, samples.count % forks == 0 else {
                return "\(name): \(samples.count) sample(s) in \(timing.forks.map(String.init) ?? "no") fork(s), "
                    + "expected a multiple of the run's \(forks) fork(s)"
            }
            let ratios = timing.ratiosToReference
            guard ratios.isEmpty || ratios.count == samples.count else {
                return "\(name): \(ratios.count) ratio(s) to the reference for \(samples.count) sample(s)"
            }
            if let position = ratios.firstIndex(where: { !($0.isFinite && $0 > 0) }) {
                return "\(name): ratio \(position + 1) to the reference is \(ratios[position]) (expected a positive finite number)"
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
    /// seed, window length, trace or build configuration), no timed case in common, or too few
    /// forks on a side for the rule to ever reach significance.
    public static func pairProblem(baseline: RunResults, current: RunResults, rule: Rule = Rule()) -> String? {
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
        ]
        if let problem = settings.compactMap({ $0 }).first { return problem }
        let currentKeys = Set(current.cases.filter { $0.timing != nil }.map(\.id))
        guard baseline.cases.contains(where: { $0.timing != nil && currentKeys.contains($0.id) }) else {
            return "no timed case is in both files (other filters or parameters?)"
        }
        let baselineForks = baseline.settings.forks ?? 0
        let currentForks = current.settings.forks ?? 0
        let level = Self.setting((1 - rule.alpha) * 100)
        if baselineForks < 2 || currentForks < 2
            || HodgesLehmann.rankOfLowerBound(baselineForks, currentForks, confidence: 1 - rule.alpha) == 0 {
            return "too few forks to reach significance: \(baselineForks) in the baseline and \(currentForks) now give no "
                + "\(level)% interval; run both with at least \(minimumForks(alpha: rule.alpha)) forks (--forks)"
        }
        return nil
    }

    /// The fewest forks per side (equal on both) for which an interval at confidence 1 − `alpha` exists.
    static func minimumForks(alpha: Double) -> Int {
        (2...64).first { HodgesLehmann.rankOfLowerBound($0, $0, confidence: 1 - alpha) > 0 } ?? 64
    }
}
