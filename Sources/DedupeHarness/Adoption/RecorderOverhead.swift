import DedupeMeasurement
import DedupeWorkloads
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import struct Foundation.URL
import class Foundation.FileManager
import PushDedupe

/// What an attached `TraceRecorder` costs per event: `dedupe-maintain recorder-overhead`.
///
/// The sides run the recommended pair keyed on push ids (`receivePayload(route:pushID:)`,
/// `receiveEmit(pushID:)`, as an app that follows the README does) on the same events, in
/// interleaved repetitions (the order rotates every repetition), each on a fresh deduplicator
/// and recorder built outside the timed pass:
/// - **bare**: no recorder: the inlined path;
/// - **no-op recorder**: a `TraceRecording` that does nothing, so the out-of-line path and the
///   one dynamic call per event, without formatting;
/// - **recorder, buffer**: `TraceRecorder` into a `TraceBuffer`;
/// - **recorder, file**: `TraceRecorder` into a `TraceFileSink` in `directory` (buffered: a file
///   write per 16 KiB).
///
/// Every side reads the real continuous clock, as an app does. The figures are the median
/// ns/event, the median over repetitions of the ratio to the bare side in the same repetition,
/// and jemalloc's allocation requests per event. Each pass is timed twice: by the wall clock, and
/// by the thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), which leaves out the time the thread
/// waited for a core. On a shared machine a long pass (a recorded one) is preempted more often
/// than a short one (the bare one), so only the CPU-time ratio stays fair under load.
package enum RecorderOverhead {
    package struct Side: Sendable {
        package var name: String
        /// Median over repetitions, by the wall clock.
        package var nanosecondsPerEvent: Double
        /// Median over repetitions of (this side / bare) in the same repetition, by the wall clock.
        package var ratioToBare: Double
        /// Median over repetitions, in thread CPU time.
        package var cpuNanosecondsPerEvent: Double
        /// Median over repetitions of (this side / bare) in the same repetition, in CPU time.
        package var cpuRatioToBare: Double
        /// jemalloc's allocation requests per event in one pass, or `nil` without jemalloc.
        package var allocationsPerEvent: Double?
    }

    package typealias Report = OverheadReport<Side>

    static let sideNames = ["bare", "no-op recorder", "recorder, buffer", "recorder, file"]

    /// Runs on the calling thread, which must be the main thread (the deduplicator is main-actor
    /// isolated). Trace files go to `directory`, one per pass, removed after it.
    ///
    /// - Complexity: O(`repetitions` × events).
    package static func measure(workload: Workload, repetitions: Int, directory: URL) -> Report {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
            preconditionFailure("the passes need MainActor.assumeIsolated (macOS 14)")
        }
        let events = Events(workload)
        nonisolated(unsafe) var statistics = JemallocStatistics()
        var nanoseconds = [[Double]](repeating: [], count: sideNames.count)
        var cpuNanoseconds = [[Double]](repeating: [], count: sideNames.count)
        var allocations = [Double?](repeating: nil, count: sideNames.count)
        for repetition in 0..<repetitions {
            for offset in sideNames.indices {
                let side = (repetition + offset) % sideNames.count
                let trace = directory.appendingPathComponent("recorder-overhead-\(repetition)-\(side).csv")
                let (elapsed, cpu, allocated) = MainActor.assumeIsolated { pass(side: side, events, trace: trace, statistics: &statistics) }
                try? FileManager.default.removeItem(at: trace)
                nanoseconds[side].append(Double(elapsed) / Double(events.count))
                cpuNanoseconds[side].append(Double(cpu) / Double(events.count))
                allocations[side] = allocated.map { Double($0) / Double(events.count) }
            }
        }
        let sides = sideNames.indices.map { side in
            Side(
                name: sideNames[side], nanosecondsPerEvent: SampleStatistics.median(nanoseconds[side]) ?? .nan,
                ratioToBare: SampleStatistics.median(zip(nanoseconds[side], nanoseconds[0]).map { $0 / $1 }) ?? .nan,
                cpuNanosecondsPerEvent: SampleStatistics.median(cpuNanoseconds[side]) ?? .nan,
                cpuRatioToBare: SampleStatistics.median(zip(cpuNanoseconds[side], cpuNanoseconds[0]).map { $0 / $1 }) ?? .nan,
                allocationsPerEvent: allocations[side])
        }
        return Report(workload: workload.name, events: events.count, repetitions: repetitions, allocator: statistics?.source, sides: sides)
    }

    /// One timed pass on a fresh deduplicator (and recorder), built before the clock and the
    /// allocation counter are read.
    @MainActor
    private static func pass(side: Int, _ events: Events, trace: URL, statistics: inout JemallocStatistics?) -> (UInt64, UInt64, Int?) {
        switch side {
        case 0:
            let dedupe = MainActorDeduplicator.recommended()
            return timed(&statistics) { run(events, dedupe) }
        case 1:
            let dedupe = MainActorDeduplicator.recommended(recorder: NoOpRecorder())
            return timed(&statistics) { run(events, dedupe) }
        case 2:
            let dedupe = MainActorDeduplicator.recommended(recorder: TraceRecorder(sink: TraceBuffer()))
            return timed(&statistics) { run(events, dedupe) }
        default:
            guard let recorder = try? TraceRecorder.recording(to: trace) else { preconditionFailure("cannot create \(trace.path)") }
            let dedupe = MainActorDeduplicator.recommended(recorder: recorder)
            let result = timed(&statistics) { run(events, dedupe) }
            recorder.withSink { $0.close() }
            return result
        }
    }

    @MainActor
    private static func timed(_ statistics: inout JemallocStatistics?, _ body: () -> Int) -> (UInt64, UInt64, Int?) {
        let before = statistics?.allocationCount()
        let start = MonotonicClock.now()
        let cpuStart = threadCPUTime()
        let navigated = body()
        let cpu = threadCPUTime() - cpuStart
        let elapsed = MonotonicClock.now() - start
        let after = statistics?.allocationCount()
        precondition(navigated > 0)
        return (elapsed, cpu, before.flatMap { b in after.map { $0 - b } })
    }

    /// Nanoseconds of CPU time this thread has used.
    private static func threadCPUTime() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The events through `dedupe`; returns how many navigated, so the loop is not dead code.
    @MainActor @inline(never)
    static func run<W: FingerprintWindow, C: ConsumedSet>(_ events: Events, _ dedupe: MainActorDeduplicator<W, C>) -> Int {
        var navigated = 0
        for index in 0..<events.count {
            let decision = events.isPayload[index]
                ? dedupe.receivePayload(route: events.routes[index], pushID: events.pushIDs[index], source: events.sources[index])
                : dedupe.receiveEmit(pushID: events.pushIDs[index], source: events.sources[index])
            if decision == .navigated { navigated &+= 1 }
        }
        return navigated
    }

    /// A recorder that records nothing: the cost of the out-of-line path and the dynamic call.
    final class NoOpRecorder: TraceRecording {
        func recordPayload(
            route: String, envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp,
            decision: RoutingDecision) {}
        func recordPayload(
            _ fingerprint: RouteFingerprint, envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp,
            decision: RoutingDecision) {}
        func recordEmit(envelope: EnvelopeID, source: String, at time: Timestamp, decision: RoutingDecision) {}
        func recordBackground(at time: Timestamp) {}
    }

    /// The workload as an app holds it, built before any pass: a route, a push id (`m` and the
    /// envelope's number, a typical server message id) and a source per event.
    struct Events: Sendable {
        var isPayload: [Bool]
        var routes: [String]
        var pushIDs: [String]
        var sources: [String]
        var count: Int { isPayload.count }

        /// The workload's payloads and emits (relaunches are not events a deduplicator sees).
        init(_ workload: Workload) {
            let events = workload.events.filter { $0.kind == .payload || $0.kind == .emit }
            var numbers: [EnvelopeID: Int] = [:]
            isPayload = events.map { $0.kind == .payload }
            routes = events.map { workload.routes[Int($0.route)] }
            pushIDs = events.map { event in
                let number = numbers[event.envelope] ?? numbers.count
                numbers[event.envelope] = number
                return "m\(number)"
            }
            sources = events.map { workload.sources[Int($0.source)] }
        }
    }
}

extension OverheadReport where Side == RecorderOverhead.Side {
    /// The table `dedupe-maintain recorder-overhead` prints.
    package var text: String {
        var lines = [
            "recorder overhead: \(workload), \(events) events keyed on push ids, \(repetitions) interleaved repetitions, "
                + "\(RecommendedPreset.v1), allocator \(allocatorText)",
            "",
            "side                   wall ns/event  × bare  CPU ns/event  × bare  allocations/event",
        ]
        for side in sides {
            let allocations = side.allocationsPerEvent.map { format($0, decimals: 4) } ?? "-"
            lines.append(
                side.name.padding(23) + format(side.nanosecondsPerEvent, decimals: 2).leftPadding(13)
                    + format(side.ratioToBare, decimals: 3).leftPadding(8)
                    + format(side.cpuNanosecondsPerEvent, decimals: 2).leftPadding(14)
                    + format(side.cpuRatioToBare, decimals: 3).leftPadding(8) + allocations.leftPadding(19))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
