import DedupeMeasurement
@testable import DedupeHarness
import PushDedupe
import Testing

@Suite struct PlanValidationTests {
    static func error(_ plan: RunPlan) -> String? {
        do {
            _ = try BenchmarkRunner.run(plan) { _ in }
            return nil
        } catch {
            return (error as? MeasurementError)?.description
        }
    }

    @Test func unknownWindowIsNamedWithTheValidOnes() throws {
        let message = try #require(Self.error(scoringPlan(trace([]), windows: ["ring-bufer"])))
        #expect(message.contains("'ring-bufer'"))
        #expect(message.contains("published-literal, tiny-window"))
    }

    @Test func unknownConsumedSetModeAndWorkload() throws {
        #expect(try #require(Self.error(scoringPlan(trace([]), consumed: ["blom"]))).contains("set, tiny-fifo, toy-filter"))
        #expect(try #require(Self.error(scoringPlan(trace([]), modes: ["three-layer"]))).contains("two-layer-guarded"))
        var plan = scoringPlan(trace([]))
        plan.source = .catalogue
        plan.filter.workloads = ["no-such-scenario"]
        #expect(try #require(Self.error(plan)).contains("'no-such-scenario'"))
    }

    @Test func badSettings() throws {
        var plan = scoringPlan(trace([]))
        plan.repetitions = 0
        #expect(try #require(Self.error(plan)).contains("repetitions"))
        plan = scoringPlan(trace([]))
        plan.windowMilliseconds = -1
        #expect(try #require(Self.error(plan)).contains("window"))
    }

    @Test func strategyRejectingItsConfigurationIsAMeasurementError() throws {
        var plan = scoringPlan(trace([(0, .payload, 1, 0, .new)]), windows: nil, consumed: ["tiny-fifo"], modes: ["consumed-alone"])
        plan.strategies.consumedSets[1].defaultConfiguration = ConsumedSetConfiguration(capacity: -1)
        #expect(try #require(Self.error(plan)).contains("tiny-fifo"))
    }

    @Test func refusesToTimeADebugBuild() throws {
        var plan = scoringPlan(trace([(0, .payload, 1, 0, .new)]))
        plan.measureTiming = true
        #if DEBUG
        #expect(try #require(Self.error(plan)).contains("debug build"))
        #endif
        plan.allowDebugBuild = true
        plan.sizing = .tiny
        #expect(Self.error(plan) == nil)
    }
}
