import DedupeWorkloads

/// The policy matrix and the fetch-latency sweep of one run: the optional `policies` property of
/// `RunResults` and the content of `policies.csv`, `policy-causes.csv` and `policies.md`. See
/// `Guides/Policies.md`.
package struct PolicyResults: Codable, Sendable, Equatable {
    /// One lifecycle scenario.
    package struct ScenarioInfo: Codable, Sendable, Equatable {
        package var id: String
        package var summary: String
        /// The variant the scenario is built to show its switch on, if any.
        package var exercises: PolicyVariant?
        /// Deliveries the conversion from a workload left out (optional).
        package var leftOut: [LifecycleScript.LeftOut]?
        /// Whether the scenario kills the process, so its rows cover every persistence
        /// (optional).
        package var relaunches: Bool?
    }

    /// One scenario under one variant and one persistence.
    package struct Row: Codable, Sendable, Equatable {
        package var scenario: String
        /// Optional: absent rows ran in memory.
        package var persistence: Persistence?
        package var variant: PolicyVariant
        package var counts: LifecycleCounts
        /// The cause of every failure, adding up to each failure column (optional).
        package var causes: [FailureCause]?

        package init(scenario: String, persistence: Persistence?, variant: PolicyVariant, counts: LifecycleCounts, causes: [FailureCause]?) {
            self.scenario = scenario
            self.persistence = persistence
            self.variant = variant
            self.counts = counts
            self.causes = causes
        }

        /// ``persistence``, `memory` when absent.
        package var persistenceID: String { (persistence ?? .memory).rawValue }
    }

    /// One point of the fetch-latency sweep.
    package struct SweepPoint: Codable, Sendable, Equatable {
        /// The fetch median swept, ms (the p99 scales with it).
        package var fetchMedianMilliseconds: Double
        /// A variant id, or `consume-after-success+keep-in-flight` (the article's first code).
        package var policy: String
        package var duplicateScreens: Int
        package var reprocessedEnvelopes: Int
        package var tasksStarted: Int
    }

    package var seed: UInt64
    /// Layer-1 and layer-2 strategy ids the router ran with.
    package var window: String
    package var consumed: String
    package var fetchMedianMilliseconds: Double
    package var fetchP99Milliseconds: Double
    package var fetchFailureRate: Double
    package var checkoutMedianMilliseconds: Double
    package var dwellMedianMilliseconds: Double
    /// The cold launch's host delay after a relaunch (optional).
    package var coldLaunchHostMedianMilliseconds: Double?
    package var scenarios: [ScenarioInfo]
    /// Scenario-major, then persistence, then variants in ``PolicyVariant`` order.
    package var rows: [Row]
    /// The scenario the sweep ran on.
    package var sweepScenario: String?
    package var sweep: [SweepPoint]
    /// A process killed at every step of a routed push, under the router's default
    /// configuration, then the published one (optional: absent in older results files and in a
    /// `--script` run).
    package var killSweep: [RouterKillSweep]?
}
