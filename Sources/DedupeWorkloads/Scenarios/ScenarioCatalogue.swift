import PushDedupe

/// Every named scenario, in report order: the published situations, the NavigationStack cases,
/// the stress presets, the mechanisms from public bug reports, then the device weeks.
///
/// ```swift
/// let workload = ScenarioCatalogue.scenario(named: "marketing-burst")?.workload(seed: 42, scale: 0.1)
/// ```
package enum ScenarioCatalogue {
    package static let all: [Scenario] = publishedSituations + navigationStackCases + stressPresets + realWorldMechanisms
        + deviceWeeks

    /// The scenario with `id`, or `nil`.
    ///
    /// - Complexity: O(*n*) in the number of scenarios.
    package static func scenario(named id: String) -> Scenario? {
        all.first { $0.id == id }
    }
}
