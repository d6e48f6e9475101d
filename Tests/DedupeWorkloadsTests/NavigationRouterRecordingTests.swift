import PushDedupe
@testable import DedupeWorkloads
import Testing

/// A `NavigationRouter` with a recorder attached writes every tap on an action and every end of
/// one it started; the trace reads back, and the shipped core, handed the recorded taps and ends
/// in order, decides each tap as the router did live.
@MainActor
@Suite struct NavigationRouterRecordingTests {
    /// A ledger that navigates every envelope once.
    final class Ledger: RouteConsumeLedger {
        var seen: Set<String> = []
        func reservePayload(fingerprint: String, pushID: String) -> RoutingDecision { reserveEmit(pushID: pushID) }
        func reserveEmit(pushID: String) -> RoutingDecision { seen.insert(pushID).inserted ? .navigated : .suppressedByConsumedSet }
        func commit(_ envelope: EnvelopeID) {}
    }

    /// Actions that wait until the test lets them go, by key, oldest first.
    @MainActor
    final class Gate {
        var waiting: [(key: String, continuation: CheckedContinuation<Void, any Error>)] = []
        func wait(_ key: String) async throws { try await withCheckedThrowingContinuation { waiting.append((key, $0)) } }
        func release(_ key: String, throwing error: (any Error)? = nil) {
            guard let index = waiting.firstIndex(where: { $0.key == key }) else { return }
            let continuation = waiting.remove(at: index).continuation
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }

    static func settle(_ condition: () -> Bool) async {
        for _ in 0..<10_000 where !condition() { await Task.yield() }
    }

    /// Seeded sessions of taps, releases and cancels on two keys.
    @Test(arguments: 1...4)
    func aRecordedSessionReplaysToTheLiveDecisions(seed: Int) async throws {
        let clock = ManualClock()
        let router = NavigationRouter<String, Ledger>(ledger: Ledger())
        let recorder = TraceRecorder(sink: TraceBuffer(), recordsActions: true)
        router.attach(recorder, clock: .manual(clock))
        let gate = Gate()
        var random = SplitMix64(seed: UInt64(seed))
        var live: [Bool] = []
        // The running action of each key: the loading guard allows one.
        var running: [String: Task<Void, Never>] = [:]
        for _ in 0..<40 {
            clock.advance(by: .milliseconds(Int64(random.uniformInt(below: 400))))
            let key = ["order", "refresh"][random.uniformInt(below: 2)]
            switch random.uniformInt(below: 4) {
            case 0, 1:
                let task = router.run(action: ActionKey(key)) { try await gate.wait(key) }
                live.append(task != nil)
                if let task {
                    running[key] = task
                    await Self.settle { gate.waiting.contains { $0.key == key } }
                }
            case 2:
                guard let task = running.removeValue(forKey: key) else { continue }
                gate.release(key)
                await task.value
            default:
                guard let task = running.removeValue(forKey: key) else { continue }
                task.cancel()
                gate.release(key, throwing: CancellationError())
                await task.value
            }
        }
        let workload = try TraceReader.read(bytes: recorder.sink.bytes, fileName: "session.csv")
        let actions = workload.events.columns.actions
        #expect(actions.records.filter { $0.kind == .started }.count == live.count)
        // The core, handed the recorded taps and ends in order, as the guarded replay does.
        var core = RouterCore<String>()
        var effects: [RouterEffect<String>] = []
        var started = Set<UInt32>()
        var replayed: [Bool] = []
        for record in actions.records {
            let key = ActionKey(actions.keys[Int(record.key)])
            switch record.kind {
            case .started:
                effects.removeAll()
                core.handle(.actionTriggered(key), into: &effects)
                replayed.append(effects.last == .startAction(key))
                if effects.last == .startAction(key) { started.insert(record.action) }
            case .finished, .cancelled:
                #expect(started.contains(record.action), "only a started action ends")
                core.handle(.actionFinished(key), into: &effects)
            }
        }
        #expect(replayed == live)
        #expect(live.contains(true) && live.contains(false))
    }
}
