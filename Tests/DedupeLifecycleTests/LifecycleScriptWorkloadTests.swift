@testable import DedupeLifecycle
import DedupeWorkloads
import PushDedupe
import Testing

/// The conversion from workloads places each delivery in its intent's flow.
@Suite struct LifecycleScriptWorkloadTests {
    /// A workload by hand: `events` as (ms, kind, route, envelope, source, truth, push).
    static func workload(_ events: [(Double, EventKind, UInt32, UInt64, PushSource, Truth, UInt32)], pushes: Int) -> Workload {
        let routes = (0..<5).map { "item:\($0)" }
        let built = events.map { time, kind, route, envelope, source, truth, push in
            kind.isLifecycle
                ? (kind == .relaunch ? WorkloadEvent.relaunch(at: .init(nanoseconds: Int64(time * 1e6)))
                    : WorkloadEvent.background(at: .init(nanoseconds: Int64(time * 1e6))))
                : WorkloadEvent(
                    time: .init(nanoseconds: Int64(time * 1e6)), kind: kind, envelope: EnvelopeID(high: 1, low: envelope),
                    fingerprint: RouteFingerprint(route: routes[Int(route)]), route: route,
                    source: UInt16(PushSource.allCases.firstIndex(of: source)!), truth: truth, push: push)
        }
        return Workload(
            name: "crafted", summary: "", routes: routes, sources: PushSource.labels, events: built,
            pushes: (0..<pushes).map { EnvelopeID(high: 2, low: UInt64($0)) })
    }

    /// A notification tap starts a fetch; 100 ms later the model adds a `button` double tap and
    /// at 250 ms an `async_completion` for the same intent. Neither may reach the path while the
    /// fetch runs: both are left out. A button flow and a checkout flow keep theirs.
    @Test func doubleTapsAttachOnlyToButtonFlowsAndCompletionsOnlyToCheckouts() throws {
        let none = WorkloadEvent.noPush
        let workload = Self.workload([
            (0, .payload, 0, 1, .tap, .new, 0),
            (100, .payload, 0, 2, .button, .dup, none),
            (250, .payload, 1, 3, .asyncCompletion, .dup, none),
            (400, .emit, 0, 1, .pendingRoute, .dup, 0),
            (10_000, .payload, 2, 4, .button, .new, none),
            (10_100, .payload, 2, 5, .button, .dup, none),
            (20_000, .payload, 3, 6, .asyncCompletion, .new, none),
            (20_050, .payload, 4, 7, .asyncCompletion, .dup, none),
        ], pushes: 1)
        let script = LifecycleScript(workload)
        let taps = script.inputs.filter { $0.kind == .tap }
        #expect(taps.map(\.time) == [10_000_000_000, 10_100_000_000])
        #expect(script.inputs.filter { $0.kind == .checkoutTap }.map(\.time) == [20_000_000_000, 20_050_000_000])
        #expect(script.inputs.filter { $0.kind == .payload || $0.kind == .emit }.map(\.time) == [0, 400_000_000])
        #expect(script.leftOut.map(\.source).sorted() == ["async_completion", "button"])
        #expect(script.leftOut.allSatisfy { $0.count == 1 })
        #expect(script.intentRoutes[2] == .max, "the checkout flow wants a receipt")
        let counts = try PolicyRun.simulate(script, policy: .published, configuration: LifecycleTimelineTests.exact, seed: 1)
        #expect(counts.wrongScreens == 0)
        #expect(counts.duplicateScreens == 0)
        #expect(counts.lostNavigations == 0)
        #expect(counts.ignoredTaps == 1, "the loading guard applies to the checkout's second tap (its checkout takes 100 ms)")
        #expect(counts.suppressedByGuard == 1, "the path.last guard applies to the button's second tap")
    }

    /// With push ids, every delivery of one push is one envelope (keyed by the push's id), and
    /// an emit joins it; without, each payload is its own.
    @Test func envelopesAreKeyedByThePushIDWhenTheWorkloadCarriesOne() {
        let sharing = Self.workload([
            (0, .payload, 0, 1, .coldLaunch, .new, 0),
            (50, .emit, 0, 1, .readyCallback, .dup, 0),
            (60_000, .relaunch, 0, 0, .tap, .unknown, WorkloadEvent.noPush),
            (60_300, .payload, 0, 2, .initialNotification, .dup, 0),
        ], pushes: 1)
        let script = LifecycleScript(sharing)
        #expect(script.envelopes == [EnvelopeID(high: 2, low: 0)])
        #expect(script.inputs.map(\.kind) == [.payload, .emit, .relaunch, .payload])
        #expect(script.hasRelaunch)
        let minted = Self.workload([
            (0, .payload, 0, 1, .coldLaunch, .new, WorkloadEvent.noPush),
            (60_300, .payload, 0, 2, .initialNotification, .dup, WorkloadEvent.noPush),
        ], pushes: 0)
        #expect(LifecycleScript(minted).envelopes.count == 2)
    }

    /// The same workload converts to the same script, input for input.
    @Test func conversionIsDeterministic() throws {
        let scenario = try #require(ScenarioCatalogue.scenario(named: "mixed-default"))
        let workload = scenario.workload(seed: 7, scale: 0.02)
        #expect(LifecycleScript(workload).inputs == LifecycleScript(workload).inputs)
        #expect(LifecycleScript(workload).leftOut == LifecycleScript(workload).leftOut)
    }
}
