import DedupeWorkloads

/// The policy matrix and the fetch-latency sweep of one run: the optional `policies` property of
/// `RunResults` and the content of `policies.csv`, `policy-causes.csv` and `policies.md`. See
/// `Guides/Policies.md`.
public struct PolicyResults: Codable, Sendable, Equatable {
    /// One lifecycle scenario.
    public struct ScenarioInfo: Codable, Sendable, Equatable {
        public var id: String
        public var summary: String
        /// The variant the scenario is built to show its switch on, if any.
        public var exercises: PolicyVariant?
        /// Deliveries the conversion from a workload left out (optional; issue 24).
        public var leftOut: [LifecycleScript.LeftOut]?
        /// Whether the scenario kills the process, so its rows cover every persistence
        /// (optional; issue 24).
        public var relaunches: Bool?
    }

    /// One scenario under one variant and one persistence.
    public struct Row: Codable, Sendable, Equatable {
        public var scenario: String
        /// Optional (issue 24): absent rows ran in memory.
        public var persistence: Persistence?
        public var variant: PolicyVariant
        public var counts: LifecycleCounts
        /// The cause of every failure, adding up to each failure column (optional; issue 24).
        public var causes: [FailureCause]?

        public init(scenario: String, persistence: Persistence?, variant: PolicyVariant, counts: LifecycleCounts, causes: [FailureCause]?) {
            self.scenario = scenario
            self.persistence = persistence
            self.variant = variant
            self.counts = counts
            self.causes = causes
        }

        /// ``persistence``, `memory` when absent.
        public var persistenceID: String { (persistence ?? .memory).rawValue }
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
    /// The cold launch's host delay after a relaunch (optional; issue 24).
    public var coldLaunchHostMedianMilliseconds: Double?
    public var scenarios: [ScenarioInfo]
    /// Scenario-major, then persistence, then variants in ``PolicyVariant`` order.
    public var rows: [Row]
    /// The scenario the sweep ran on.
    public var sweepScenario: String?
    public var sweep: [SweepPoint]
    /// A process killed at every step of a routed push, under the router's default
    /// configuration, then the published one (optional; issue 42: absent in earlier results and
    /// in a `--script` run).
    public var killSweep: [RouterKillSweep]?
}
