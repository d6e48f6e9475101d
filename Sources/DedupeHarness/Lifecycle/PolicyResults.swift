/// The policy matrix and the fetch-latency sweep of one run: the optional `policies` property of
/// `RunResults` and the content of `policies.csv` / `policies.md`. See `Guides/Policies.md`.
public struct PolicyResults: Codable, Sendable, Equatable {
    /// One lifecycle scenario.
    public struct ScenarioInfo: Codable, Sendable, Equatable {
        public var id: String
        public var summary: String
        /// The variant the scenario is built to show failing, if any.
        public var exercises: String?
    }

    /// One scenario under one variant.
    public struct Row: Codable, Sendable, Equatable {
        public var scenario: String
        public var variant: String
        public var counts: LifecycleCounts
    }

    /// One point of the fetch-latency sweep.
    public struct SweepPoint: Codable, Sendable, Equatable {
        /// The fetch median swept, ms (the p99 scales with it).
        public var fetchMedianMilliseconds: Double
        /// A variant id, or `consume-after-success+keep-in-flight` (the article's first code).
        public var policy: String
        public var duplicateScreens: Int
        public var reprocessedEnvelopes: Int
        public var tasksStarted: Int
    }

    public var seed: UInt64
    /// Layer-1 and layer-2 strategy ids the router ran with.
    public var window: String
    public var consumed: String
    public var fetchMedianMilliseconds: Double
    public var fetchP99Milliseconds: Double
    public var fetchFailureRate: Double
    public var checkoutMedianMilliseconds: Double
    public var dwellMedianMilliseconds: Double
    public var scenarios: [ScenarioInfo]
    /// Scenario-major, variants in ``PolicyVariant`` order.
    public var rows: [Row]
    /// The scenario the sweep ran on.
    public var sweepScenario: String?
    public var sweep: [SweepPoint]
}
