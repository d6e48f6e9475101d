@testable import DedupeHarness
import DedupeWorkloads
import Foundation
import PushDedupe
import Testing

/// The guarded mode's loading guard replays the trace's own taps and action ends through the
/// shipped core: it holds exactly as long as each recorded action ran.
@Suite struct RoutedActionReplayTests {
    static let header = "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed,action"

    /// The guarded loop's decision for every event of `text`, with the pick's strategies.
    static func decisions(_ text: String) throws -> [CaseDecision] {
        let workload = try TraceReader.read(bytes: Array(text.utf8), fileName: "hand.csv")
        let columns = workload.events.columns.flaggingActionCompletions()
        var routed = try _ConcreteCase<HashDequeWindow, FIFOSet>(
            mode: .twoLayerGuarded, window: WindowConfiguration(), consumed: ConsumedSetConfiguration(capacity: 64))
        return routed.runForCorrectness(columns, probes: 0, seed: 1).decisions.map { CaseDecision(rawValue: $0)! }
    }

    /// A tap at 0 starts an order that fetches for 6 s; a second tap at 4.8 s comes while it
    /// runs, so the core ignores it and its completion at 5 s never shows; the first order's
    /// screen at 6 s does. The generators' old 3 s bound would have let the second one through.
    @Test func aCompletionWhoseTapCameWhileTheActionRanIsCaught() throws {
        let decided = try Self.decisions("""
            \(Self.header)
            0,action_start,,order,,,,,a1
            4800,action_start,,order,,,,,a2
            5000,payload,e2,receipt:2,async_completion,dup,,,a2
            5000,action_finish,,,,,,,a2
            6000,payload,e1,receipt:1,async_completion,new,,,a1
            6000,action_finish,,,,,,,a1
            """)
        #expect(decided == [.suppressedByLoadingGuard, .navigated])
    }

    /// The same order finishing at 1 s: a wanted tap at 2 s starts a new order, whose screen
    /// shows; its callback fired again at 3 s, after the action finished and past the window, is
    /// a new payload for the screen on top, which the top-of-stack guard drops.
    @Test func aWantedTapAfterTheActionFinishedPasses() throws {
        let decided = try Self.decisions("""
            \(Self.header)
            0,action_start,,order,,,,,a1
            1000,payload,e1,receipt:1,async_completion,new,,,a1
            1000,action_finish,,,,,,,a1
            2000,action_start,,order,,,,,a2
            2400,payload,e2,receipt:2,async_completion,new,,,a2
            2400,action_finish,,,,,,,a2
            3000,payload,e3,receipt:2,async_completion,dup,,,a2
            """)
        #expect(decided == [.navigated, .navigated, .suppressedByGuard])
    }

    /// A cancelled action ends like a finished one, and a relaunch ends every running action:
    /// a tap after either starts a new one.
    @Test func aCancelOrARelaunchEndsTheAction() throws {
        let decided = try Self.decisions("""
            \(Self.header)
            0,action_start,,order,,,,,a1
            100,action_cancel,,,,,,,a1
            200,action_start,,order,,,,,a2
            300,relaunch,,,,,,,
            400,action_start,,order,,,,,a3
            500,payload,e3,receipt:3,async_completion,new,,,a3
            """)
        #expect(decided == [.notApplicable, .navigated])
    }

    /// A trace without action records gives the loading guard nothing to hold: an
    /// `async_completion` payload is judged by the layers and the top-of-stack guard alone, and
    /// its missed dup is attributed to the missing records.
    @Test func aTraceWithoutActionRecordsReplaysWithoutTheLoadingGuard() throws {
        let text = """
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,e1,receipt:1,async_completion,new
            200,payload,e2,receipt:2,async_completion,dup
            """
        #expect(try Self.decisions(text) == [.navigated, .navigated])
        let workload = try TraceReader.read(bytes: Array(text.utf8), fileName: "hand.csv")
        let results = try BenchmarkRunner.run(scoringPlan(workload, modes: ["two-layer-guarded"])) { _ in }
        let guarded = try #require(result(results, "two-layer-guarded"))
        #expect(guarded.correctness?.missedDuplicates == 1)
        #expect(guarded.correctness?.missedByCause[ErrorCause.noActionRecords] == 1)
    }

    /// Generated taps replay against the core the way a hand-made model of the loading guard
    /// says: per key, a tap starts an action only when none with its key runs, and a completion
    /// shows only when its action ran.
    @Test func generatedTapsMatchAModelOfTheLoadingGuard() throws {
        for seed: UInt64 in [1, 2, 3] {
            let workload = try #require(ScenarioCatalogue.scenario(named: "async-completion-after-retap")).workload(seed: seed)
            let actions = workload.events.columns.actions
            #expect(!actions.isEmpty)
            var running: [UInt32: Int] = [:]
            var ran = Set<UInt32>()
            var expected: [Int: Bool] = [:]
            var next = 0
            for completion in actions.completions {
                while next < actions.records.count, actions.records[next].position <= completion.event {
                    let record = actions.records[next]
                    switch record.kind {
                    case .started where running[record.key] == nil:
                        running[record.key] = Int(record.action)
                        ran.insert(record.action)
                    case .finished, .cancelled:
                        if running[record.key] == Int(record.action) { running[record.key] = nil }
                    default: break
                    }
                    next += 1
                }
                expected[completion.event] = ran.contains(completion.action)
            }
            var routed = try _ConcreteCase<_NoOpWindow, _NoOpConsumedSet>(
                mode: .twoLayerGuarded, window: WindowConfiguration(), consumed: ConsumedSetConfiguration())
            let decisions = routed.runForCorrectness(workload.events.columns.flaggingActionCompletions(), probes: 0, seed: 1).decisions
            for (event, shows) in expected {
                #expect((decisions[event] != CaseDecision.suppressedByLoadingGuard.rawValue) == shows, "seed \(seed), event \(event)")
            }
            #expect(expected.values.contains(false) && expected.values.contains(true))
        }
    }
}
