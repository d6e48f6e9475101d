import DedupeHarness

extension ResultsComparison {
    /// The first reason `results` cannot be compared, or `nil`: a timed case with no samples, or a
    /// sample or median that is not a positive finite ns/event (a hand-edited or truncated file).
    /// A zero median would make every change infinite, and an empty sample set has no test.
    ///
    /// - Complexity: O(samples) over all cases.
    public static func inputProblem(in results: RunResults) -> String? {
        for (index, result) in results.cases.enumerated() {
            guard let timing = result.timing else { continue }
            let name = "case \(index + 1) (\(result.key))"
            guard !timing.samplesNanosecondsPerEvent.isEmpty else { return "\(name) has timing but no samples" }
            if let position = timing.samplesNanosecondsPerEvent.firstIndex(where: { !($0.isFinite && $0 > 0) }) {
                return "\(name): sample \(position + 1) is \(timing.samplesNanosecondsPerEvent[position]) ns/event "
                    + "(expected a positive finite number)"
            }
            guard timing.medianNanosecondsPerEvent.isFinite && timing.medianNanosecondsPerEvent > 0 else {
                return "\(name): median is \(timing.medianNanosecondsPerEvent) ns/event (expected a positive finite number)"
            }
        }
        return nil
    }

    /// Why `baseline` and `current` cannot be compared at all, or `nil`: they come from different
    /// results schemas (a reader that accepts several must not mix them silently).
    public static func pairProblem(baseline: RunResults, current: RunResults) -> String? {
        guard baseline.schemaVersion == current.schemaVersion else {
            return "the files have different results schemas (\(baseline.schemaVersion) and \(current.schemaVersion))"
        }
        return nil
    }
}
