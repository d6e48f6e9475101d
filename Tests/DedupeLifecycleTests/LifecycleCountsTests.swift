@testable import DedupeLifecycle
import Foundation
import Testing

@Suite struct LifecycleCountsTests {
    /// Older results lack the process-death counts; they decode as 0.
    @Test func countsWithoutTheNewFieldsDecode() throws {
        let old = """
        {"intents":2,"pushes":1,"duplicateScreens":0,"lostNavigations":1,"reprocessedEnvelopes":0,"wrongScreens":0,
         "repushedAfterLeave":0,"tasksStarted":1,"fetchFailures":0,"tasksCompleted":1,"tasksFailed":0,"tasksCancelled":0,
         "suppressedByWindow":1,"suppressedByConsumedSet":0,"suppressedByGuard":0,"ignoredTaps":0,"earlyReturns":0}
        """
        let counts = try JSONDecoder().decode(LifecycleCounts.self, from: Data(old.utf8))
        #expect(counts.lostNavigations == 1 && counts.suppressedByWindow == 1)
        #expect(counts.overlappingTasks == 0 && counts.tasksKilled == 0 && counts.relaunches == 0)
        var current = counts
        current.tasksKilled = 3
        #expect(try JSONDecoder().decode(LifecycleCounts.self, from: JSONEncoder().encode(current)) == current)
    }
}
