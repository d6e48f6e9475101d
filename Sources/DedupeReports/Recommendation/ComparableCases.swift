import DedupeHarness

/// Restricts cases to those that can be compared fairly: counts summed over different sets of
/// workloads cannot be ranked against each other.
enum ComparableCases {
    /// Groups cases into candidates by strategies and parameters (as `Candidate.aggregate` does).
    static func key(_ result: CaseResult, window: Bool, consumed: Bool) -> String {
        "\(window ? result.window ?? "" : "")|\(consumed ? result.consumed ?? "" : "")|\(result.parameters)"
    }

    /// The cases of the candidates that ran on every workload any candidate ran on (the
    /// harness runs some pairs on one workload only), or, if no candidate did, of those with
    /// the widest coverage.
    ///
    /// - Complexity: O(cases).
    static func widest(_ cases: [CaseResult], window: Bool = true, consumed: Bool = true) -> [CaseResult] {
        var coverage: [String: Set<String>] = [:]
        for result in cases { coverage[key(result, window: window, consumed: consumed), default: []].insert(result.workload) }
        let widest = coverage.values.map(\.count).max() ?? 0
        let kept = Set(coverage.filter { $0.value.count == widest }.keys)
        return cases.filter { kept.contains(key($0, window: window, consumed: consumed)) }
    }
}
