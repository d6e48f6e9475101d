@testable import DedupeLifecycle
import DedupeWorkloads
import PushDedupe
import Testing

/// Process death: a relaunch ends the process, and only the persistence under test keeps the
/// consumed set and the pending route. Fetches take exactly 100 ms; nothing fails.
@Suite struct LifecycleRelaunchTests {
    static func run(_ script: LifecycleScript, _ persistence: Persistence, _ variant: PolicyVariant = .published) throws -> LifecycleOutcome {
        var configuration = LifecycleTimelineTests.exact
        configuration.persistence = persistence
        return try PolicyRun.outcome(script, policy: variant.policy, configuration: configuration, seed: 1)
    }

    /// A tap at 0 starts the fetch; the process dies at 50 ms; the ready callback hands the
    /// same envelope over again at 10 s, after the cold launch's host attach.
    static func midFetch(background: Double? = nil) -> LifecycleScript {
        LifecycleTimelineTests.script { builder, a, _, _ in
            let envelope = builder.envelope(wanting: a)
            if let background, background < 10 { builder.event(.background, at: background) }
            builder.payload(envelope, at: 10)
            if let background, background >= 10 { builder.event(.background, at: background) }
            builder.event(.relaunch, at: 50)
            builder.emit(envelope, at: 10_000, source: "ready_callback")
        }
    }

    @Test func aRelaunchMidFetchLosesTheTaskAndInMemoryTheConsumedSet() throws {
        let memory = try Self.run(Self.midFetch(), .memory)
        #expect(memory.counts.tasksKilled == 1)
        #expect(memory.counts.tasksStarted == 2)
        #expect(memory.counts.tasksCompleted == 1)
        #expect(memory.counts.reprocessedEnvelopes == 1, "the consumed set was lost")
        #expect(memory.causes.contains { $0.failure == .reprocessedEnvelopes && $0.rule == .memoryPersistence && $0.mechanism == "ready_callback" })
        #expect(memory.counts.pushes == 1)
        #expect(memory.counts.lostNavigations == 0)
        let snapshot = try Self.run(Self.midFetch(), .afterEveryConsume)
        #expect(snapshot.counts.tasksKilled == 1)
        #expect(snapshot.counts.reprocessedEnvelopes == 0, "the consumed set survived")
        #expect(snapshot.counts.pushes == 0)
        #expect(snapshot.counts.lostNavigations == 1)
        #expect(snapshot.causes.map(\.rule) == [.noRetryAfterConsume])
        // Saved at a background after the consume: as a snapshot. Before it: as memory.
        let after = try Self.run(Self.midFetch(background: 20), .onBackground)
        #expect(after.counts.reprocessedEnvelopes == 0)
        let before = try Self.run(Self.midFetch(background: 5), .onBackground)
        #expect(before.counts.reprocessedEnvelopes == 1)
        #expect(before.causes.contains { $0.failure == .reprocessedEnvelopes && $0.rule == .lostSinceBackground })
        // Without the relaunch the task completes and the emit is stopped.
        var alive = Self.midFetch()
        alive.inputs.removeAll { $0.kind == .relaunch }
        let kept = try Self.run(alive, .memory)
        #expect(kept.counts.tasksKilled == 0 && kept.counts.reprocessedEnvelopes == 0 && kept.counts.pushes == 1)
    }

    /// The path dies with the process (a tap of the same intent after it pushes again, a re-push
    /// after leaving), and so does layer 1's window (the same route 100 ms after the kill passes).
    @Test func theKillTakesThePathAndTheWindow() throws {
        let path = LifecycleTimelineTests.navigation { builder, a in
            let intent = builder.intent(wanting: a)
            builder.event(.tap, route: a, intent: intent, at: 0)
            builder.event(.relaunch, at: 100)
            builder.event(.tap, route: a, intent: intent, at: 200)
        }
        let tapped = try Self.run(path, .afterEveryConsume)
        #expect(tapped.counts.pushes == 2)
        #expect(tapped.counts.repushedAfterLeave == 1)
        #expect(tapped.causes.map(\.rule) == [.tapAfterLeave])
        let window = LifecycleTimelineTests.script { builder, a, _, _ in
            builder.payload(builder.envelope(wanting: a), at: 0)
            builder.event(.relaunch, at: 150)
            builder.payload(builder.envelope(wanting: a), at: 250)
        }
        let passed = try Self.run(window, .memory)
        #expect(passed.counts.suppressedByWindow == 0)
        #expect(passed.counts.tasksStarted == 2)
    }

    /// A cold-launch push waiting for the host when the process dies: the store keeps the
    /// pending route, and the next launch's host attach shows it; in memory it is gone.
    @Test func thePendingRouteReplaysAtTheColdLaunchOnlyIfStored() throws {
        let script = LifecycleTimelineTests.script(hostAttached: false) { builder, a, _, _ in
            builder.payload(builder.envelope(wanting: a), at: 0, source: "cold_launch")
            builder.event(.relaunch, at: 300)
        }
        let snapshot = try Self.run(script, .afterEveryConsume)
        #expect(snapshot.counts.pushes == 1)
        #expect(snapshot.counts.lostNavigations == 0)
        let memory = try Self.run(script, .memory)
        #expect(memory.counts.pushes == 0)
        #expect(memory.causes.map(\.rule) == [.memoryPersistence])
        let background = try Self.run(script, .onBackground)
        #expect(background.causes.map(\.rule) == [.lostSinceBackground])
    }
}
