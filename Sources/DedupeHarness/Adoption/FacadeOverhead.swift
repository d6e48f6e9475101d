import DedupeMeasurement
import DedupeWorkloads
import struct Foundation.UUID
import PushDedupe

/// What the adoption facade costs over the bare pipeline: `dedupe-maintain facade-overhead`.
///
/// The three sides run the recommended pair on the same events, in interleaved repetitions (the
/// order rotates every repetition), each on fresh strategies built outside the timed pass:
/// - **bare**: `TwoLayerPipeline`, with what an app must do around it per event: read
///   `ContinuousClock.now` and convert it (`Timestamp(_:since:)`), `EnvelopeID(uuid:)`, and
///   `RouteFingerprint(route:)` for payloads;
/// - **main actor**: `MainActorDeduplicator`, called with the route string and the `UUID`;
/// - **main actor, fingerprint**: the same, with the caller digesting the route
///   (`receivePayload(_: RouteFingerprint, envelope:)`), as the bare side does;
/// - **shared**: `SharedDeduplicator`, with the route string, behind its lock.
///
/// Every side reads the real continuous clock, because that is what the app's code does per event
/// and the facade's work includes the read; an injected clock would time a lock in `ManualClock`
/// instead. So the events' own times are not replayed: the whole workload passes in milliseconds,
/// layer 1 suppresses more than the workload intends, and the decision mix can differ slightly
/// between sides (it is printed). The figure that matters is the median of the per-repetition
/// differences to the bare side, and the allocations per event counted by jemalloc.
package enum FacadeOverhead {
    package struct Side: Sendable {
        package var name: String
        /// Median over repetitions.
        package var nanosecondsPerEvent: Double
        /// Median over repetitions of (this side − bare), in ns per event; 0 for the bare side.
        package var extraNanosecondsPerEvent: Double
        /// jemalloc's allocation requests per event in one pass, or `nil` without jemalloc.
        package var allocationsPerEvent: Double?
        /// Navigated, suppressed by the window, suppressed by the consumed set, in the last pass.
        package var decisions: [Int]
    }

    package typealias Report = OverheadReport<Side>

    /// Runs the measurement on the calling thread, which must be the main thread (the main-actor
    /// side runs there). Call it from a release build: it refuses nothing, the caller does.
    ///
    /// - Complexity: O(`repetitions` × events).
    package static func measure(workload: Workload, repetitions: Int) -> Report {
        let events = Events(workload)
        var statistics = JemallocStatistics()
        var nanoseconds = [[Double]](repeating: [], count: sideNames.count)
        var allocations = [Double?](repeating: nil, count: sideNames.count)
        var decisions = [[Int]](repeating: [], count: sideNames.count)
        for repetition in 0..<repetitions {
            for offset in sideNames.indices {
                let side = (repetition + offset) % sideNames.count
                let pass = run(side: side, events, statistics: &statistics)
                nanoseconds[side].append(Double(pass.nanoseconds) / Double(events.count))
                allocations[side] = pass.allocations.map { Double($0) / Double(events.count) }
                decisions[side] = pass.decisions
            }
        }
        let sides = sideNames.indices.map { side in
            Side(
                name: sideNames[side], nanosecondsPerEvent: SampleStatistics.median(nanoseconds[side]) ?? .nan,
                extraNanosecondsPerEvent: SampleStatistics.median(zip(nanoseconds[side], nanoseconds[0]).map { $0 - $1 }) ?? .nan,
                allocationsPerEvent: allocations[side], decisions: decisions[side])
        }
        return Report(workload: workload.name, events: events.count, repetitions: repetitions,
                      allocator: statistics?.source, sides: sides)
    }

    static let sideNames = ["bare", "main actor", "main actor, fingerprint", "shared"]

    struct Pass {
        var nanoseconds: UInt64
        /// Allocation requests during the timed loop only (not while building the strategies).
        var allocations: Int?
        var decisions: [Int]
    }

    /// One timed pass of `side` on fresh strategies, built before the clock and the allocation
    /// counter are read.
    private static func run(side: Int, _ events: Events, statistics: inout JemallocStatistics?) -> Pass {
        switch side {
        case 0:
            var pipeline = RecommendedPreset.v1.makePipeline()
            let origin = ContinuousClock.now
            return timed(&statistics) { bare(events, &pipeline, origin: origin) }
        case 1:
            return mainActorPass(events, digestingRoutes: false, statistics: &statistics)
        case 2:
            return mainActorPass(events, digestingRoutes: true, statistics: &statistics)
        default:
            let dedupe = SharedDeduplicator.recommended()
            return timed(&statistics) { shared(events, dedupe) }
        }
    }

    private static func timed(_ statistics: inout JemallocStatistics?, _ body: () -> Counts) -> Pass {
        let before = statistics?.allocationCount()
        let start = MonotonicClock.now()
        let counts = body()
        let elapsed = MonotonicClock.now() - start
        let after = statistics?.allocationCount()
        return Pass(nanoseconds: elapsed, allocations: before.flatMap { b in after.map { $0 - b } }, decisions: counts.array)
    }

    private static func mainActorPass(_ events: Events, digestingRoutes: Bool, statistics: inout JemallocStatistics?) -> Pass {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
            preconditionFailure("the main-actor side needs MainActor.assumeIsolated (macOS 14)")
        }
        let dedupe = MainActor.assumeIsolated { MainActorDeduplicator.recommended() }
        // The counters are read inside the isolated closure, so that entering it is not counted.
        // This thread is the main thread and the only one using them.
        nonisolated(unsafe) var counters = statistics
        let pass = MainActor.assumeIsolated {
            timed(&counters) { digestingRoutes ? mainActorDigesting(events, dedupe) : mainActor(events, dedupe) }
        }
        statistics = counters
        return pass
    }

    @inline(never)
    static func bare<W: FingerprintWindow, C: ConsumedSet>(
        _ events: Events, _ pipeline: inout TwoLayerPipeline<W, C>, origin: ContinuousClock.Instant
    ) -> Counts {
        var counts = Counts()
        for index in 0..<events.count {
            let now = Timestamp(ContinuousClock.now, since: origin)
            let id = EnvelopeID(uuid: events.envelopes[index])
            counts.add(events.isPayload[index]
                ? pipeline.receivePayload(RouteFingerprint(route: events.routes[index]), envelope: id, at: now)
                : pipeline.receiveEmit(envelope: id, at: now))
        }
        return counts
    }

    @MainActor @inline(never)
    static func mainActor<W: FingerprintWindow, C: ConsumedSet>(_ events: Events, _ dedupe: MainActorDeduplicator<W, C>) -> Counts {
        var counts = Counts()
        for index in 0..<events.count {
            counts.add(events.isPayload[index]
                ? dedupe.receivePayload(route: events.routes[index], envelope: events.envelopes[index])
                : dedupe.receiveEmit(envelope: events.envelopes[index]))
        }
        return counts
    }

    @MainActor @inline(never)
    static func mainActorDigesting<W: FingerprintWindow, C: ConsumedSet>(_ events: Events, _ dedupe: MainActorDeduplicator<W, C>) -> Counts {
        var counts = Counts()
        for index in 0..<events.count {
            counts.add(events.isPayload[index]
                ? dedupe.receivePayload(RouteFingerprint(route: events.routes[index]), envelope: events.envelopes[index])
                : dedupe.receiveEmit(envelope: events.envelopes[index]))
        }
        return counts
    }

    @inline(never)
    static func shared<W: FingerprintWindow, C: ConsumedSet>(_ events: Events, _ dedupe: SharedDeduplicator<W, C>) -> Counts {
        var counts = Counts()
        for index in 0..<events.count {
            counts.add(events.isPayload[index]
                ? dedupe.receivePayload(route: events.routes[index], envelope: events.envelopes[index])
                : dedupe.receiveEmit(envelope: events.envelopes[index]))
        }
        return counts
    }

    /// The workload as an app holds it: a route string (shared, not copied), a `UUID` and a kind
    /// per event, built before any pass.
    struct Events: Sendable {
        var isPayload: [Bool]
        var routes: [String]
        var envelopes: [UUID]
        var count: Int { isPayload.count }

        init(_ workload: Workload) {
            isPayload = workload.events.map { $0.kind == .payload }
            routes = workload.events.map { workload.routes[Int($0.route)] }
            envelopes = workload.events.map { UUID($0.envelope) }
        }
    }

    struct Counts: Sendable {
        var navigated = 0, window = 0, consumed = 0

        @inline(__always)
        mutating func add(_ decision: RoutingDecision) {
            switch decision {
            case .navigated: navigated &+= 1
            case .suppressedByWindow: window &+= 1
            case .suppressedByConsumedSet: consumed &+= 1
            }
        }

        var array: [Int] { [navigated, window, consumed] }
    }
}

extension OverheadReport where Side == FacadeOverhead.Side {
    /// The table `dedupe-maintain facade-overhead` prints.
    package var text: String {
        var lines = [
            "facade overhead: \(workload), \(events) events, \(repetitions) interleaved repetitions, pair "
                + "\(RecommendedPreset.v1.windowType.strategyID) + \(RecommendedPreset.v1.consumedSetType.strategyID), "
                + "allocator \(allocatorText)",
            "every side reads ContinuousClock.now and converts the UUID (and the route for payloads) per event",
            "",
            "side                     ns/event  extra ns/event  allocations/event  navigated/window/consumed",
        ]
        for side in sides {
            let allocations = side.allocationsPerEvent.map { format($0, decimals: 4) } ?? "-"
            lines.append(
                side.name.padding(23) + format(side.nanosecondsPerEvent, decimals: 2).leftPadding(10)
                    + format(side.extraNanosecondsPerEvent, decimals: 2).leftPadding(16)
                    + allocations.leftPadding(19) + "  " + side.decisions.map(String.init).joined(separator: "/"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
