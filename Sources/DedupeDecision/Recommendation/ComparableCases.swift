import DedupeHarness

/// Restricts cases to those that can be compared fairly: counts summed over different sets of
/// workloads cannot be ranked against each other.
package enum ComparableCases {
    /// The cases of the strategy choices that ran on every workload any choice ran on (the
    /// harness runs some pairs on one workload only), or, if none did, of those with the widest
    /// coverage. A choice's coverage is its base case's (twins run only where they can differ).
    ///
    /// - Complexity: O(cases).
    package static func widest(_ cases: [CaseResult]) -> [CaseResult] {
        var coverage: [StrategyChoice: Set<String>] = [:]
        for result in cases { coverage[result.choice.base, default: []].insert(result.workload) }
        let widest = coverage.values.map(\.count).max() ?? 0
        let kept = Set(coverage.filter { $0.value.count == widest }.keys)
        return cases.filter { kept.contains($0.choice.base) }
    }
}
