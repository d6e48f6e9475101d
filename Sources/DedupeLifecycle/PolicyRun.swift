import DedupeWorkloads
import PushDedupe

/// Runs the policy matrix (scenario × persistence × variant) and the fetch-latency sweep.
///
/// The router uses the published code for both layers (`published-literal`, `set`), so the matrix
/// isolates the policies from the data structures. A scenario without a relaunch runs once, in
/// memory; one with relaunches runs under every ``Persistence``.
package enum PolicyRun {
    /// The fetch medians the sweep visits, ms.
    package static let sweepMedians: [Double] = [25, 50, 100, 200, 400, 800, 1_600, 2_000]
    /// The scenario the sweep runs on: the published situation the consume timing is about.
    package static let sweepScenario = "envelope-reemitted"
    /// The sweep's curves: the variant, the article's first code, and the published policy.
    static let sweepPolicies: [(String, LifecyclePolicy)] = {
        var firstCode = PolicyVariant.consumeAfterSuccess.policy
        firstCode.cancelInFlightTask = false
        return [
            (PolicyVariant.consumeAfterSuccess.rawValue, PolicyVariant.consumeAfterSuccess.policy),
            ("consume-after-success+keep-in-flight", firstCode),
            (PolicyVariant.published.rawValue, .published),
        ]
    }()

    /// Every selected scenario under every selected variant (and persistence, for scenarios
    /// with relaunches), then the sweep (when its scenario is selected), then the kill sweep over
    /// the router's effects.
    ///
    /// - Parameters:
    ///   - scenarios: ids to run; `nil` for all. Unknown ids throw.
    ///   - variants: ids to run; `nil` for all. Unknown ids throw.
    ///   - scale: shrinks the reused stress scenarios (quick runs).
    /// - Throws: ``LifecycleConfigurationError`` for a bad configuration,
    ///   ``LifecycleSelectionError`` for an unknown id.
    /// - Complexity: O(scenarios × persistences × variants × inputs log inputs), well under a
    ///   second in a release build.
    package static func run(
        seed: UInt64, configuration: LifecycleConfiguration = LifecycleConfiguration(),
        scenarios: [String]? = nil, variants: [String]? = nil, scale: Double = 1
    ) throws -> PolicyResults {
        try configuration.validate()
        let selectedScenarios = try select(scenarios, from: LifecycleScenarioCatalogue.all.map(\.id), kind: "scenario")
            .compactMap(LifecycleScenarioCatalogue.scenario(named:))
        let selectedVariants = try selectVariants(variants)
        var infos: [PolicyResults.ScenarioInfo] = []
        var rows: [PolicyResults.Row] = []
        var sweep: [PolicyResults.SweepPoint] = []
        for scenario in selectedScenarios {
            let script = scenario.script(seed: seed, scale: scale)
            infos.append(info(script, id: scenario.id, summary: scenario.summary, exercises: scenario.exercises))
            rows += try matrixRows(script, scenario: scenario.id, variants: selectedVariants, configuration: configuration, seed: seed)
            if scenario.id == sweepScenario {
                for median in sweepMedians {
                    for (name, policy) in sweepPolicies {
                        let counts = try simulate(script, policy: policy, configuration: configuration.withFetchMedian(median), seed: seed)
                        sweep.append(.init(
                            fetchMedianMilliseconds: median, policy: name, duplicateScreens: counts.duplicateScreens,
                            reprocessedEnvelopes: counts.reprocessedEnvelopes, tasksStarted: counts.tasksStarted))
                    }
                }
            }
        }
        var policies = results(seed: seed, configuration: configuration, scenarios: infos, rows: rows, sweep: sweep)
        policies.killSweep = RouterKillSweep.both()
        return policies
    }

    /// One script (a `--script` file, a `verify` counterexample) under the selected variants,
    /// with `configuration`'s persistence.
    ///
    /// - Throws: ``LifecycleConfigurationError``, ``LifecycleSelectionError`` for an unknown variant.
    package static func run(
        script: LifecycleScript, seed: UInt64, configuration: LifecycleConfiguration = LifecycleConfiguration(),
        variants: [String]? = nil
    ) throws -> PolicyResults {
        try configuration.validate()
        let selectedVariants = try selectVariants(variants)
        var rows: [PolicyResults.Row] = []
        for variant in selectedVariants {
            let outcome = try self.outcome(script, policy: variant.policy, configuration: configuration, seed: seed)
            rows.append(.init(
                scenario: script.name, persistence: configuration.persistence, variant: variant,
                counts: outcome.counts, causes: outcome.causes))
        }
        return results(
            seed: seed, configuration: configuration,
            scenarios: [info(script, id: script.name, summary: script.summary, exercises: nil)], rows: rows, sweep: [])
    }

    static func matrixRows(
        _ script: LifecycleScript, scenario: String, variants: [PolicyVariant], configuration: LifecycleConfiguration, seed: UInt64
    ) throws -> [PolicyResults.Row] {
        var rows: [PolicyResults.Row] = []
        let persistences: [Persistence] = script.hasRelaunch ? Persistence.allCases : [.memory]
        for persistence in persistences {
            var configured = configuration
            configured.persistence = persistence
            for variant in variants {
                let outcome = try outcome(script, policy: variant.policy, configuration: configured, seed: seed)
                rows.append(.init(
                    scenario: scenario, persistence: persistence, variant: variant, counts: outcome.counts,
                    causes: outcome.causes))
            }
        }
        return rows
    }

    static func info(_ script: LifecycleScript, id: String, summary: String, exercises: PolicyVariant?) -> PolicyResults.ScenarioInfo {
        .init(id: id, summary: summary, exercises: exercises, leftOut: script.leftOut, relaunches: script.hasRelaunch)
    }

    static func results(
        seed: UInt64, configuration: LifecycleConfiguration, scenarios: [PolicyResults.ScenarioInfo], rows: [PolicyResults.Row],
        sweep: [PolicyResults.SweepPoint]
    ) -> PolicyResults {
        PolicyResults(
            seed: seed, window: PublishedLiteralWindow.strategyID, consumed: UnboundedSet.strategyID,
            fetchMedianMilliseconds: configuration.fetchMedianMilliseconds,
            fetchP99Milliseconds: configuration.fetchP99Milliseconds, fetchFailureRate: configuration.fetchFailureRate,
            checkoutMedianMilliseconds: configuration.checkoutMedianMilliseconds,
            dwellMedianMilliseconds: configuration.dwellMedianMilliseconds,
            coldLaunchHostMedianMilliseconds: configuration.coldLaunchHostMedianMilliseconds,
            scenarios: scenarios, rows: rows, sweepScenario: sweep.isEmpty ? nil : sweepScenario, sweep: sweep)
    }

    /// One script under one policy with the published strategies.
    ///
    /// - Throws: ``LifecycleConfigurationError``.
    package static func simulate(
        _ script: LifecycleScript, policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64
    ) throws -> LifecycleCounts {
        try outcome(script, policy: policy, configuration: configuration, seed: seed).counts
    }

    /// ``simulate(_:policy:configuration:seed:)`` with the causes of every failure.
    ///
    /// - Throws: ``LifecycleConfigurationError``.
    package static func outcome(
        _ script: LifecycleScript, policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64
    ) throws -> LifecycleOutcome {
        try simulator(policy: policy, configuration: configuration, seed: seed).outcome(script)
    }

    /// A simulator with the published strategies at `configuration`'s window.
    ///
    /// - Throws: ``LifecycleConfigurationError``.
    static func simulator(
        policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64
    ) throws(LifecycleConfigurationError) -> LifecycleSimulator<PublishedLiteralWindow, UnboundedSet> {
        let windowConfiguration = WindowConfiguration(
            window: .nanoseconds(LifecycleScriptBuilder.nanoseconds(configuration.windowMilliseconds)), capacity: 64)
        let window: PublishedLiteralWindow
        let consumed: UnboundedSet
        do {
            window = try PublishedLiteralWindow(configuration: windowConfiguration)
            consumed = try UnboundedSet(configuration: ConsumedSetConfiguration())
        } catch {
            throw LifecycleConfigurationError(parameter: "windowMilliseconds", reason: error.description)
        }
        return try LifecycleSimulator(window: window, consumed: consumed, policy: policy, configuration: configuration, seed: seed)
    }

    static func selectVariants(_ ids: [String]?) throws(LifecycleSelectionError) -> [PolicyVariant] {
        try select(ids, from: PolicyVariant.allCases.map(\.rawValue), kind: "variant").compactMap(PolicyVariant.init(rawValue:))
    }

    private static func select(_ ids: [String]?, from known: [String], kind: String) throws(LifecycleSelectionError) -> [String] {
        guard let ids else { return known }
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw LifecycleSelectionError(kind: kind, id: unknown, known: known)
        }
        return known.filter(ids.contains)
    }
}

/// A scenario or variant id `policies` or `verify` was asked for and does not know.
package struct LifecycleSelectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `scenario` or `variant`.
    package var kind: String
    package var id: String
    /// The ids of that kind there are.
    package var known: [String]

    package var description: String {
        "unknown \(kind) '\(id)' (known: \(known.joined(separator: ", ")))"
    }
}
