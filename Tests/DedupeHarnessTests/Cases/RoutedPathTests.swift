@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe
import Testing

/// `two-layer-guarded` pushes through the shipped router core, whose guard checks
/// `path.last != route` on a path the user goes back through.
@Suite struct RoutedPathTests {
    /// A at 0; a wanted re-tap of A two hours later, after the user went back (every dwell is at
    /// most an hour); another 600 ms after that, while the user is still on A.
    @Test func retapAfterGoingBackPassesTheGuard() throws {
        let workload = trace([
            (0, .payload, 1, 0, .new),
            (7_200_000, .payload, 2, 0, .new),
            (7_200_600, .payload, 3, 0, .new),
        ])
        let results = try BenchmarkRunner.run(scoringPlan(workload, modes: ["two-layer-guarded", "two-layer"])) { _ in }
        let guarded = try #require(result(results, "two-layer-guarded")?.correctness)
        #expect(guarded.suppressedByGuard == 1)
        // Dropped while A is on top: the user has the screen, so not a false drop.
        #expect(guarded.falseDrops == 0)
        #expect(guarded.duplicateScreens == 0)
        #expect(guarded.lostNavigations == 0)
        // The unguarded pipeline's path only grows: both re-taps stack A on A.
        let unguarded = try #require(result(results, "two-layer")?.correctness)
        #expect(unguarded.duplicateScreens == 2)
    }

    /// The loop and its scoring make the same calls, so they see the same pops.
    @Test func pathIsDeterministicAndPopsAfterTheDwell() {
        var first = _RoutedPath(guardsTop: true)
        var second = _RoutedPath(guardsTop: true)
        var random = SplitMix64(seed: 9)
        var time: Int64 = 0
        for _ in 0..<5_000 {
            time += Int64(random.exponential(mean: 5_000)) * 1_000_000
            let route = UInt32(random.uniformInt(below: 3))
            let pushed = first.pushUnlessOnTop(route, at: Timestamp(nanoseconds: time))
            #expect(pushed == second.pushUnlessOnTop(route, at: Timestamp(nanoseconds: time)))
            #expect(first.top == route)
        }
        // Dwells are at most an hour: a day later the user has gone back through everything.
        first.advance(to: Timestamp(nanoseconds: time + 86_400_000_000_000))
        #expect(first.top == .max)
        var fresh = _RoutedPath(guardsTop: true)
        let pushedFirst = fresh.pushUnlessOnTop(7, at: .milliseconds(0))
        let pushedAgain = fresh.pushUnlessOnTop(7, at: .milliseconds(0.5))
        #expect(pushedFirst && !pushedAgain)
    }

    /// The scoring's path has no guard, so it pushes a duplicate the decisions let through; both
    /// draw the same dwells, so they pop alike.
    @Test func theUnguardedPathPushesWhatTheGuardedOneDrops() {
        var guarded = _RoutedPath(guardsTop: true)
        var unguarded = _RoutedPath(guardsTop: false)
        let pushes = [0, 1].map { time in
            (guarded.pushUnlessOnTop(3, at: .milliseconds(time)), unguarded.pushUnlessOnTop(3, at: .milliseconds(time)))
        }
        #expect(pushes.map(\.0) == [true, false])
        #expect(pushes.map(\.1) == [true, true])
        #expect(guarded.screens == [3] && unguarded.screens == [3, 3])
    }

    /// A push onto a full path forgets the bottom screen, so the path's storage stays fixed; a
    /// relaunch empties it, and the same screen may be pushed again.
    @Test func aFullPathForgetsItsBottomScreen() {
        var path = _RoutedPath(guardsTop: true)
        let pushed = (0...UInt32(_RoutedPath.capacity)).map { path.pushUnlessOnTop($0, at: .milliseconds(0)) }
        #expect(pushed.allSatisfy { $0 })
        #expect(path.screens == Array(1...UInt32(_RoutedPath.capacity)))
        path.relaunch()
        #expect(path.screens.isEmpty)
        let pushedAfterRelaunch = path.pushUnlessOnTop(UInt32(_RoutedPath.capacity), at: .milliseconds(1))
        #expect(pushedAfterRelaunch && path.screens == [UInt32(_RoutedPath.capacity)])
    }

    /// A mode without the guard holds an inert path, which a relaunch in its trace still reaches.
    @Test func anInertPathSurvivesARelaunch() {
        var inert = _RoutedPath.inert
        inert.relaunch()
        #expect(inert.top == .max && inert.screens.isEmpty)
    }
}

/// The guarded mode's loading guard: the shipped core ignores a tap while the action behind the
/// last tapped screen is held running, so that tap's completion never comes.
@Suite struct RoutedPathLoadingGuardTests {
    /// A tapped screen holds the action for `actionHold`; a completion inside it is ignored, one
    /// after it starts the action again, and a relaunch ends the hold.
    @Test func aCompletionWithinTheHoldIsIgnored() {
        var path = _RoutedPath(guardsTop: true)
        let hold = Double(_RoutedPath.actionHold) / 1e6
        let first = path.admitsAsyncCompletion(at: .milliseconds(0))
        path.holdAction(at: .milliseconds(10))
        let withinTheHold = path.admitsAsyncCompletion(at: .milliseconds(10 + hold))
        let afterTheHold = path.admitsAsyncCompletion(at: .milliseconds(10 + hold + 1))
        let rightAfterThat = path.admitsAsyncCompletion(at: .milliseconds(10 + hold + 2))
        path.relaunch()
        let afterARelaunch = path.admitsAsyncCompletion(at: .milliseconds(10 + hold + 3))
        // The hold's last instant still runs the action; a killed process runs none.
        #expect([first, withinTheHold, afterTheHold, rightAfterThat, afterARelaunch] == [true, false, true, false, true])
    }

    /// A button's screen at 0 holds the action; a second completion of it at 1 s is a duplicate
    /// the published code shows and the router's loading guard stops; a new action's completion
    /// at 2 s is inside the hold too, so the guard drops a wanted navigation; one at 5 s runs.
    /// The router's cases are matched with the published code as it ships (`two-layer`).
    @Test func theGuardedModeScoresTheLoadingGuard() throws {
        let sources = [PushSource.tap, .button, .asyncCompletion]
        let routes = ["item:A", "item:B", "item:C"]
        let events: [(Double, UInt64, UInt32, UInt16, Truth)] = [
            (0, 1, 0, 1, .new), (1_000, 2, 1, 2, .dup), (2_000, 3, 2, 2, .new), (5_000, 4, 1, 2, .new),
        ]
        let workload = Workload(
            name: "hand", summary: "taps behind an async action", routes: routes, sources: sources.map(\.rawValue),
            events: events.map { time, envelope, route, source, truth in
                WorkloadEvent(
                    time: .milliseconds(time), kind: .payload, envelope: EnvelopeID(high: 7, low: envelope),
                    fingerprint: RouteFingerprint(route: routes[Int(route)]), route: route, source: source, truth: truth)
            })
        let results = try BenchmarkRunner.run(scoringPlan(workload, modes: ["two-layer", "two-layer-guarded"])) { _ in }
        let published = try #require(result(results, "two-layer")?.correctness)
        #expect(published.missedDuplicates == 1 && published.falseDrops == 0)
        let guarded = try #require(result(results, "two-layer-guarded")?.correctness)
        #expect(guarded.suppressedByGuard == 2)
        #expect(guarded.missedDuplicates == 0 && guarded.falseDrops == 1)
        let matched = try #require(guarded.matched)
        #expect(matched.reference == "hand.csv/two-layer/seed-literal(window=500ms)+set/minted/memory")
        #expect(matched.newlyBlockedDuplicates == 1 && matched.newlyDropped == 1)
    }
}
