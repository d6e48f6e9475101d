@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe

/// Builds tiny hand-written traces: `(ms, kind, envelope, route, truth)`.
func trace(_ events: [(Double, EventKind, UInt64, UInt32, Truth)]) -> Workload {
    let routes = ["item:A", "item:B", "item:C"]
    return Workload(
        name: "hand", summary: "hand-written trace", routes: routes, sources: ["tap"],
        events: events.map { time, kind, envelope, route, truth in
            WorkloadEvent(
                time: .milliseconds(time), kind: kind, envelope: EnvelopeID(high: 7, low: envelope),
                fingerprint: RouteFingerprint(route: routes[Int(route)]), route: route, source: 0, truth: truth)
        })
}

/// A correctness-only plan over `workload` with the toy strategies.
func scoringPlan(
    _ workload: Workload, windows: [String]? = ["published-literal"], consumed: [String]? = ["set"], modes: [String]? = nil
) -> RunPlan {
    var plan = RunPlan(
        source: .trace(workload, fileName: "hand.csv"), seed: 1, repetitions: 1, windowMilliseconds: 500,
        filter: RunFilter(windows: windows, consumedSets: consumed, modes: modes),
        measureTiming: false, measureMemory: false, runSweeps: false)
    plan.strategies = .toys
    plan.memoryIsolation = .inProcess
    return plan
}

/// The one result of `mode` in `results`.
func result(_ results: RunResults, _ mode: String, window: String? = nil, consumed: String? = nil) -> CaseResult? {
    results.cases.first {
        $0.mode.rawValue == mode && $0.choice.isBase && (window == nil || $0.window == window) && (consumed == nil || $0.consumed == consumed)
    }
}
