import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// How the pipeline behind the router fares as every fetch behind a tap gets shorter or longer:
/// the router's loading guard holds exactly as long as each action runs, so its catches depend
/// on the fetch, not on a constant. See `Guides/Harness.md` § Router latency sweep.
///
/// It runs one choice, fixed before the run so that it needs no recommendation: the published
/// pipeline's candidate (``StrategyCatalogue/companionWindowID`` + `fifo-set` at the device
/// profile's sizing, `push-id`, `after-every-consume`) in `two-layer-guarded`, on the selected
/// device workloads whose actions draw their fetch (``Scenario/drawsFetches``), each regenerated
/// with the fetch median scaled and every other draw unchanged.
package struct RouterLatencySweep: Codable, Sendable, Equatable {
    /// One fetch-latency scale, summed over ``workloads``.
    package struct Point: Codable, Sendable, Equatable {
        /// The multiplier on the published fetch median (``ActionTimingFacts/published``).
        package var scale: Double
        /// Duplicates that still navigated, of `duplicates`.
        package var missed: Int
        package var duplicates: Int
        /// Wanted navigations dropped, of `wanted`.
        package var dropped: Int
        package var wanted: Int
    }

    /// The case's choice text (``StrategyChoice/text``).
    package var choice: String
    package var workloads: [String]
    package var points: [Point]

    /// The swept multipliers on the published fetch median: a quarter to four times.
    package static let scales: [Double] = [0.25, 0.5, 1, 2, 4]
}

extension _Run {
    /// The sweep's choice and its case parameters, or nil when the catalogue lacks either layer
    /// (a test catalogue).
    private func routerSweepChoice() -> (window: WindowEntry, consumed: ConsumedSetEntry, parameters: CaseParameters)? {
        guard let window = plan.strategies.window(StrategyCatalogue.companionWindowID),
              let consumed = plan.strategies.consumedSet(FIFOSet.strategyID) else { return nil }
        return (window, consumed, parameters(window: window, consumed: consumed, windowMilliseconds: plan.windowMilliseconds))
    }

    /// The selected device scenarios whose actions draw their fetch; none for a trace.
    private var routerSweepScenarios: [Scenario] {
        guard case .catalogue = plan.source else { return [] }
        return workloads.filter { $0.tag == .device }.compactMap { ScenarioCatalogue.scenario(named: $0.id) }.filter(\.drawsFetches)
    }

    /// The progress steps ``sweepRouterLatency()`` reports: one per scale when it runs.
    var routerLatencySteps: Int {
        routerSweepScenarios.isEmpty || routerSweepChoice() == nil ? 0 : RouterLatencySweep.scales.count
    }

    /// Runs ``RouterLatencySweep``; nil when no selected workload draws fetches.
    ///
    /// - Complexity: one generation and one correctness run per workload and scale.
    mutating func sweepRouterLatency() throws(MeasurementError) -> RouterLatencySweep? {
        let scenarios = routerSweepScenarios
        guard !scenarios.isEmpty, let (window, consumed, parameters) = routerSweepChoice() else { return nil }
        let identity = EnvelopeIdentity.pushID, persistence = Persistence.afterEveryConsume
        let choice = StrategyChoice(
            mode: .twoLayerGuarded, window: LayerKey(id: window.id, reads: window.reads, parameters),
            consumed: LayerKey(id: consumed.id, reads: consumed.reads, parameters), identity: identity, persistence: persistence)
        var points: [RouterLatencySweep.Point] = []
        for scale in RouterLatencySweep.scales {
            report("sweep router-latency ×\(scale)")
            let facts = ActionTimingFacts.published.scaled(by: scale)
            var point = RouterLatencySweep.Point(scale: scale, missed: 0, duplicates: 0, dropped: 0, wanted: 0)
            for scenario in scenarios {
                guard let workload = scenario.workload(seed: plan.seed, actionTiming: facts) else { continue }
                var loaded = LoadedWorkload(id: scenario.id, category: scenario.category, tag: scenario.tag, workload: workload, spec: nil)
                loaded.prepare(keepEvents: false)
                let columns = loaded.columns(identity)
                let anyCase = plan.strategies.makeCase(
                    window: window, consumed: consumed, mode: .twoLayerGuarded, parameters: parameters, persistence: persistence)
                let run = try Self.rethrowing("router-latency ×\(scale) \(scenario.id)") {
                    try anyCase._correctness(columns, 0, plan.seed, plan.snapshotBytesBound)
                }
                let score = CorrectnessResult(decisions: run.decisions, columns: columns, run: run)
                point.missed += score.missedDuplicates
                point.duplicates += score.dupEvents
                point.dropped += score.falseDrops
                point.wanted += score.newEvents
            }
            points.append(point)
        }
        return RouterLatencySweep(choice: choice.text, workloads: scenarios.map(\.id), points: points)
    }
}
