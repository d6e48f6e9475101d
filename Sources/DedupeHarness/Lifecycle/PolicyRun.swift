import DedupeWorkloads
import PushDedupe

/// Runs the policy matrix (scenario × variant) and the fetch-latency sweep.
///
/// The router uses the published code for both layers (`seed-literal`, `set`), so the matrix
/// isolates the policies from the data structures.
public enum PolicyRun {
    /// The fetch medians the sweep visits, ms.
    public static let sweepMedians: [Double] = [25, 50, 100, 200, 400, 800, 1_600, 2_000]
    /// The scenario the sweep runs on: the published situation the consume timing is about.
    public static let sweepScenario = "envelope-reemitted"
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

    /// Every selected scenario under every selected variant, then the sweep (when its scenario is
    /// selected).
    ///
    /// - Parameters:
    ///   - scenarios: ids to run; `nil` for all. Unknown ids throw.
    ///   - variants: ids to run; `nil` for all. Unknown ids throw.
    ///   - scale: shrinks the reused stress scenarios (quick runs).
    /// - Throws: ``LifecycleConfigurationError`` for a bad configuration, `HarnessError` for an
    ///   unknown id.
    /// - Complexity: O(scenarios × variants × inputs log inputs), a few seconds in a release build.
    public static func run(
        seed: UInt64, configuration: LifecycleConfiguration = LifecycleConfiguration(),
        scenarios: [String]? = nil, variants: [String]? = nil, scale: Double = 1
    ) throws -> PolicyResults {
        try configuration.validate()
        let selectedScenarios = try select(scenarios, from: LifecycleScenarioCatalogue.all.map(\.id), kind: "scenario")
            .compactMap(LifecycleScenarioCatalogue.scenario(named:))
        let selectedVariants = try select(variants, from: PolicyVariant.allCases.map(\.rawValue), kind: "variant")
            .compactMap(PolicyVariant.init(rawValue:))
        var rows: [PolicyResults.Row] = []
        var sweep: [PolicyResults.SweepPoint] = []
        for scenario in selectedScenarios {
            let script = scenario.script(seed: seed, scale: scale)
            for variant in selectedVariants {
                let counts = try simulate(script, policy: variant.policy, configuration: configuration, seed: seed)
                rows.append(.init(scenario: scenario.id, variant: variant.rawValue, counts: counts))
            }
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
        return PolicyResults(
            seed: seed, window: SeedLiteralWindow.strategyID, consumed: UnboundedSet.strategyID,
            fetchMedianMilliseconds: configuration.fetchMedianMilliseconds,
            fetchP99Milliseconds: configuration.fetchP99Milliseconds, fetchFailureRate: configuration.fetchFailureRate,
            checkoutMedianMilliseconds: configuration.checkoutMedianMilliseconds,
            dwellMedianMilliseconds: configuration.dwellMedianMilliseconds,
            scenarios: selectedScenarios.map { .init(id: $0.id, summary: $0.summary, exercises: $0.exercises?.rawValue) },
            rows: rows, sweepScenario: sweep.isEmpty ? nil : sweepScenario, sweep: sweep)
    }

    /// One script under one policy with the published strategies.
    ///
    /// - Throws: ``LifecycleConfigurationError``.
    public static func simulate(
        _ script: LifecycleScript, policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64
    ) throws -> LifecycleCounts {
        let windowConfiguration = WindowConfiguration(
            window: .nanoseconds(LifecycleScriptBuilder.nanoseconds(configuration.windowMilliseconds)), capacity: 4_096)
        let window: SeedLiteralWindow
        let consumed: UnboundedSet
        do {
            window = try SeedLiteralWindow(configuration: windowConfiguration)
            consumed = try UnboundedSet(configuration: ConsumedSetConfiguration())
        } catch {
            throw LifecycleConfigurationError(parameter: "windowMilliseconds", reason: error.description)
        }
        var simulator = try LifecycleSimulator(
            window: window, consumed: consumed, policy: policy, configuration: configuration, seed: seed)
        return simulator.run(script)
    }

    private static func select(_ ids: [String]?, from known: [String], kind: String) throws(HarnessError) -> [String] {
        guard let ids else { return known }
        if let unknown = ids.first(where: { !known.contains($0) }) {
            throw HarnessError.invalidPlan("unknown \(kind) '\(unknown)' (known: \(known.joined(separator: ", ")))")
        }
        return known.filter(ids.contains)
    }
}
