import PushDedupe

/// Collects generated events in any order, then sorts them into processing order and labels them.
///
/// Generators record *intents* (one navigation the user wants) and the events that represent
/// them. ``finish(name:summary:)`` stable-sorts by time (ties keep recording order, so an
/// envelope's creating payload, recorded first, stays before its emits) and applies the truth
/// rule: the first event of an intent in processing order is `new`, every later one `dup`.
struct WorkloadBuilder {
    /// A recorded payload, to emit its envelope again.
    struct PayloadHandle {
        fileprivate let envelope: EnvelopeID
        fileprivate let route: UInt32
        let time: Int64
    }

    private struct Pending {
        var time: Int64
        var sequence: Int
        var intent: Int
        var envelope: EnvelopeID
        var route: UInt32
        var source: UInt16
        var kind: EventKind
    }

    private var pending: [Pending] = []
    private var routes: [String] = []
    private var fingerprints: [RouteFingerprint] = []
    /// Route index by `(kind, id)`. Only looked up, never iterated, so its hashing cannot leak
    /// into the output order.
    private var routeIndex: [RouteKey: UInt32] = [:]
    private(set) var intentCount = 0
    /// Envelope ids are drawn from their own stream so that the events' timing does not depend
    /// on how many envelopes were created.
    private var envelopeRandom: SplitMix64

    private struct RouteKey: Hashable {
        var kind: RouteKind
        var id: Int
    }

    init(seed: UInt64, expectedEvents: Int = 0) {
        envelopeRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x656e_7665_6c6f_7065))
        pending.reserveCapacity(expectedEvents)
    }

    /// Events recorded so far.
    var eventCount: Int { pending.count }

    /// Starts a new user intent and returns its number.
    mutating func newIntent() -> Int {
        defer { intentCount += 1 }
        return intentCount
    }

    /// Records a payload for `kind:id` at `time` (nanoseconds), creating a fresh envelope.
    @discardableResult
    mutating func payload(intent: Int, kind: RouteKind, id: Int, source: PushSource, at time: Int64) -> PayloadHandle {
        let route = intern(kind, id)
        let envelope = nextEnvelope()
        append(time: time, intent: intent, envelope: envelope, route: route, source: source, kind: .payload)
        return PayloadHandle(envelope: envelope, route: route, time: time)
    }

    /// Records an emit of `payload`'s envelope at `time`, or at the payload's time if earlier: an
    /// envelope cannot be emitted before it exists.
    mutating func emit(of payload: PayloadHandle, intent: Int, source: PushSource, at time: Int64) {
        append(time: max(time, payload.time), intent: intent, envelope: payload.envelope, route: payload.route,
               source: source, kind: .emit)
    }

    /// Records a relaunch of the app at `time`: it belongs to no intent and is never scored.
    mutating func relaunch(at time: Int64) {
        pending.append(Pending(time: time, sequence: pending.count, intent: -1, envelope: EnvelopeID(high: 0, low: 0),
                               route: .max, source: .max, kind: .relaunch))
    }

    /// Sorts, labels and packages the events.
    ///
    /// - Complexity: O(*n* log *n*).
    mutating func finish(name: String, summary: String) -> Workload {
        pending.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        var seen = [Bool](repeating: false, count: intentCount)
        var events: [WorkloadEvent] = []
        events.reserveCapacity(pending.count)
        for item in pending {
            if item.kind == .relaunch {
                events.append(.relaunch(at: Timestamp(nanoseconds: item.time)))
                continue
            }
            let truth: Truth = seen[item.intent] ? .dup : .new
            seen[item.intent] = true
            events.append(WorkloadEvent(
                time: Timestamp(nanoseconds: item.time), kind: item.kind, envelope: item.envelope,
                fingerprint: fingerprints[Int(item.route)], route: item.route, source: item.source, truth: truth))
        }
        pending = []
        return Workload(name: name, summary: summary, routes: routes, sources: PushSource.labels, events: events)
    }

    private mutating func append(
        time: Int64, intent: Int, envelope: EnvelopeID, route: UInt32, source: PushSource, kind: EventKind
    ) {
        pending.append(Pending(time: time, sequence: pending.count, intent: intent, envelope: envelope,
                               route: route, source: source.index, kind: kind))
    }

    private mutating func intern(_ kind: RouteKind, _ id: Int) -> UInt32 {
        let key = RouteKey(kind: kind, id: id)
        if let index = routeIndex[key] { return index }
        let index = UInt32(routes.count)
        let route = kind.route(id)
        routes.append(route)
        fingerprints.append(RouteFingerprint(route: route))
        routeIndex[key] = index
        return index
    }

    /// A random version-4 UUID, as `UUID()` would create in the app.
    private mutating func nextEnvelope() -> EnvelopeID {
        let high = envelopeRandom.next() & ~0xf000 | 0x4000
        let low = envelopeRandom.next() & ~(0xc << 60) | (0x8 << 60)
        return EnvelopeID(high: high, low: low)
    }
}

/// Milliseconds as whole nanoseconds, rounded to nearest and saturating at the ends of `Int64`,
/// so a heavy-tailed sample (a log-normal re-tap delay) can never trap the generator.
@inline(__always)
func nanoseconds(milliseconds: Double) -> Int64 {
    saturatingNanoseconds(milliseconds * 1_000_000)
}

/// `value` rounded to a whole `Int64`, saturating at its ends (NaN saturates high).
@inline(__always)
func saturatingNanoseconds(_ value: Double) -> Int64 {
    let rounded = value.rounded()
    // 2⁶³ is exactly representable; anything at or past it saturates.
    guard rounded < 9_223_372_036_854_775_808.0 else { return .max }
    guard rounded >= -9_223_372_036_854_775_808.0 else { return rounded.isNaN ? .max : .min }
    return Int64(rounded)
}
