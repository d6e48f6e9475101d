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

