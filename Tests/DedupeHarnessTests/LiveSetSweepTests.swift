import DedupeMeasurement
@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe
import Testing

/// The live-set speed sweep: both repeat shares, every selected window plus the standard-library
/// baseline when `hash-deque` is swept, and a baseline whose answers are `hash-deque`'s.
@Suite struct LiveSetSweepTests {
    /// Seeded random admits: a few hundred fingerprints (so the baseline's dictionary and the
    /// lane table both grow), steps that land on the window boundary exactly, repeated instants
    /// and steps backwards; every answer and count of the baseline equals `hash-deque`'s.
    @Test(arguments: [0 as Int64, 1, 1_000, 500_000])
    func standardLibraryBaselineDecidesAsHashDeque(windowNanoseconds: Int64) throws {
        var random = SplitMix64(seed: 0x57d ^ UInt64(windowNanoseconds))
        for sequence in 0..<40 {
            let configuration = WindowConfiguration(
                window: .nanoseconds(windowNanoseconds), capacity: Int.random(in: 0...16, using: &random))
            var baseline = try StandardLibraryWindow(configuration: configuration)
            var hashDeque = try HashDequeWindow(configuration: configuration)
            let universe = Int.random(in: 1...400, using: &random)
            var time: Int64 = 1_000_000
            for step in 0..<2_000 {
                switch Int.random(in: 0..<8, using: &random) {
                case 0: break
                case 1: time += windowNanoseconds
                case 2: time += windowNanoseconds + 1
                case 3: time -= Int64.random(in: 1...10, using: &random)
                default: time += Int64.random(in: 0...max(1, windowNanoseconds / 8), using: &random)
                }
                let fingerprint = RouteFingerprint(route: "item:\(Int.random(in: 0..<universe, using: &random))")
                let expected = hashDeque.admit(fingerprint, at: Timestamp(nanoseconds: time))
                let answer = baseline.admit(fingerprint, at: Timestamp(nanoseconds: time))
                guard answer == expected, baseline.count == hashDeque.count else {
                    Issue.record("window \(windowNanoseconds) ns, sequence \(sequence), step \(step): baseline \(answer) (\(baseline.count) held), hash-deque \(expected) (\(hashDeque.count) held)")
                    return
                }
            }
        }
    }

    /// Times at the edges of `Int64` never trap, and the boundary is inclusive.
    @Test func standardLibraryBaselineClampsTimeAndKeepsTheBoundary() throws {
        var window = try StandardLibraryWindow(configuration: WindowConfiguration(window: .nanoseconds(10), capacity: 1))
        let a = RouteFingerprint(route: "item:a")
        let b = RouteFingerprint(route: "item:b")
        let answers = [
            window.admit(a, at: Timestamp(nanoseconds: .min)), window.admit(a, at: Timestamp(nanoseconds: .min + 10)),
            window.admit(a, at: Timestamp(nanoseconds: .min + 11)), window.admit(b, at: Timestamp(nanoseconds: .max)),
            window.admit(b, at: Timestamp(nanoseconds: 0)),
        ]
        #expect(answers == [true, false, true, true, false])
        #expect(window.count == 1)
        #expect(throws: ConfigurationError.self) {
            try StandardLibraryWindow(configuration: WindowConfiguration(window: .nanoseconds(-1), capacity: 1))
        }
    }

    /// Both dimensions, every size, every selected window and the baseline, each timed on events.
    @Test func sweepTimesEveryWindowAtBothRepeatShares() throws {
        var plan = RunPlan(source: .catalogue, seed: 3, repetitions: 1, filter: RunFilter(windows: ["ring-buffer", "hash-deque"]))
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        let points = try BenchmarkRunner.runLiveSetSweep(plan, liveSetSizes: [1, 8]) { _ in }
        var expected: [String] = []
        for dimension in [SweepDimension.windowLiveSet, SweepDimension.windowLiveSetRepeats] {
            for live in [1, 8] {
                for strategy in ["ring-buffer", "hash-deque", StandardLibraryWindow.strategyID] { expected.append("\(dimension.rawValue) \(live) \(strategy)") }
            }
        }
        #expect(points.map { "\($0.dimension.rawValue) \(Int($0.x)) \($0.strategy)" } == expected)
        #expect(points.allSatisfy { ($0.nanosecondsPerEvent ?? 0) > 0 && $0.events >= RunSizing.tiny.sweepEventsRange.lowerBound })
        #expect(SweepDimension.liveSetRepeatShares.map(\.repeatShare) == [0, 0.5])
    }

    /// Without `hash-deque` there is nothing to hold the baseline against.
    @Test func baselineRunsOnlyBesideHashDeque() throws {
        var plan = RunPlan(source: .catalogue, seed: 3, repetitions: 1, filter: RunFilter(windows: ["ring-buffer"]))
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        let points = try BenchmarkRunner.runLiveSetSweep(plan, liveSetSizes: [8]) { _ in }
        #expect(points.map(\.strategy) == ["ring-buffer", "ring-buffer"])
    }

    @Test func badSizesAreRejected() {
        var plan = RunPlan(source: .catalogue, seed: 3, repetitions: 1)
        plan.allowDebugBuild = true
        #expect(throws: MeasurementError.self) { try BenchmarkRunner.runLiveSetSweep(plan, liveSetSizes: [0]) { _ in } }
    }
}
