import DedupeWorkloads

/// What a workload is, recorded in the results so the reports never read the scenario catalogue.
public struct WorkloadInfo: Codable, Sendable, Equatable {
    /// The id cases refer to: a scenario id or the trace's file name.
    public var id: String
    /// The scenario's one-line summary (the trace's, for a replay).
    public var description: String
    /// `published-situation`, `navigation-stack`, `stress`; `nil` for a trace.
    public var category: String?
    /// `device` (what one phone plausibly sees) or `stress`. A replayed trace is `device`: it is
    /// one app's traffic.
    public var tag: String
    public var events: Int
    /// Distinct envelopes.
    public var envelopes: Int
    /// Emits (replays of an envelope already created).
    public var replays: Int
    /// Of those, the ones at most the run's window length after their envelope's creation: the
    /// replays a window alone could catch.
    public var replaysWithinWindow: Int
    /// The longest delay of an emit after its envelope's creation, ms.
    public var longestReplayMilliseconds: Double
    /// The most envelopes created within any span of that length: the capacity an exact set
    /// forgetting its oldest ids needs to catch every replay of this workload.
    public var envelopesWithinLongestReplay: Int
    /// Where the published window's cases stopped on this workload, when they could not run it
    /// whole without going quadratic (optional; ``ReferenceWindowLimit``).
    public var referenceWindowLimit: ReferenceWindowLimit?
}

/// The recommendation rule's knobs, recorded so a report re-rendered from the JSON applies the
/// same rule.
public struct RecommendationSettings: Codable, Sendable, Equatable {
    /// Let `may-drop` strategies compete (`--allow-probabilistic`).
    public var allowProbabilistic = false
    /// The pair's memory budget in bytes (`--memory-budget`); everything under it ties.
    public var memoryBudgetBytes = defaultMemoryBudgetBytes
    /// How many missed duplicates one false drop costs when choosing the window length
    /// (`--drop-weight`).
    public var dropWeight = 1.0

    public static let defaultMemoryBudgetBytes = 64 * 1_024
}
