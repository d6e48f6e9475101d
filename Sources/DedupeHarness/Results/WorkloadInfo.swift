import DedupeWorkloads

/// What a workload is, recorded in the results so the reports never read the scenario catalogue.
package struct WorkloadInfo: Codable, Sendable, Equatable {
    /// The id cases refer to: a scenario id or the trace's file name.
    package var id: String
    /// The scenario's one-line summary (the trace's, for a replay).
    package var description: String
    /// `published-situation`, `navigation-stack`, `stress`; `nil` for a trace.
    package var category: String?
    /// `device` (what one phone plausibly sees) or `stress`. A replayed trace is `device`: it is
    /// one app's traffic.
    package var tag: String
    package var events: Int
    /// Distinct envelopes.
    package var envelopes: Int
    /// Emits (replays of an envelope already created).
    package var replays: Int
    /// Of those, the ones at most the run's window length after their envelope's creation: the
    /// replays a window alone could catch.
    package var replaysWithinWindow: Int
    /// The longest delay of an emit after its envelope's creation, ms.
    package var longestReplayMilliseconds: Double
    /// The most envelopes created within any span of that length: the capacity an exact set
    /// forgetting its oldest ids needs to catch every replay of this workload.
    package var envelopesWithinLongestReplay: Int
    /// Where the published window's cases stopped on this workload, when they could not run it
    /// whole without going quadratic (optional; ``ReferenceWindowLimit``).
    package var referenceWindowLimit: ReferenceWindowLimit?
}

/// The recommendation rule's knobs, recorded so a report re-rendered from the JSON applies the
/// same rule.
package struct RecommendationSettings: Codable, Sendable, Equatable {
    /// Let `may-drop` strategies compete (`--allow-probabilistic`).
    package var allowProbabilistic = false
    /// The pair's memory budget in bytes (`--memory-budget`); everything under it ties.
    package var memoryBudgetBytes = defaultMemoryBudgetBytes
    /// How many missed duplicates one false drop costs when choosing the window length
    /// (`--drop-weight`).
    package var dropWeight = 1.0

    package static let defaultMemoryBudgetBytes = 64 * 1_024
}
