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
        fileprivate let envelope: Int32
        fileprivate let route: UInt32
        /// The push the payload delivered, inherited by its emits.
        let push: UInt32
        let time: Int64
    }

    private struct Pending {
        var time: Int64
        var sequence: Int
        var intent: Int
        /// Index into `envelopes`; 0 for a lifecycle marker.
        var envelope: Int32
        var route: UInt32
        var source: UInt16
        var kind: EventKind
        var push: UInt32
        /// The builder's number of the action this payload completes, or of an action record's
        /// action; `noAction` otherwise.
        var action: UInt32 = WorkloadBuilder.noAction
        /// Set for an action record: the tap that started it, or its end.
        var actionStep: ActionRecord.Kind?
    }

    private static let noAction = UInt32.max

    private var pending: [Pending] = []
    /// The id of each envelope a payload created, in recording order.
    private var envelopes: [EnvelopeID] = []
    /// The id of each push recorded with ``newPush()``.
    private var pushes: [EnvelopeID] = []
    private var routes: [String] = []
    private var fingerprints: [RouteFingerprint] = []
    /// Route index by `(kind, id)`. Only looked up, never iterated, so its hashing cannot leak
    /// into the output order.
    private var routeIndex: [RouteKey: UInt32] = [:]
    private(set) var intentCount = 0
    /// Envelope ids are drawn from their own stream so that the events' timing does not depend
    /// on how many envelopes were created.
    private var envelopeRandom: SplitMix64
    /// Push ids come from a third stream, so adding them changed no envelope id or time.
    private var pushRandom: SplitMix64
    /// Fetch latencies come from a fourth, so a scaled fetch moves no tap.
    private var latencyRandom: SplitMix64
    /// What fetch latencies are drawn from (``fetchLatency()``).
    private let actionTiming: ActionTimingFacts
    /// Action keys, and each action's key, by the builder's action number.
    private var actionKeys: [String] = []
    private var actionKeyIndex: [String: UInt32] = [:]
    private var keyOfAction: [UInt32] = []

    private struct RouteKey: Hashable {
        var kind: RouteKind
        var id: Int
    }

    init(seed: UInt64, expectedEvents: Int = 0, actionTiming: ActionTimingFacts = .published) {
        self.actionTiming = actionTiming
        envelopeRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x656e_7665_6c6f_7065))
        pushRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x7075_7368_5f69_6473))
        latencyRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x6665_7463_685f_6d73))
        pending.reserveCapacity(expectedEvents)
    }

    /// Events recorded so far.
    var eventCount: Int { pending.count }

    /// Starts a new user intent and returns its number.
    mutating func newIntent() -> Int {
        defer { intentCount += 1 }
        return intentCount
    }

    /// A new push the server sent, with a random version-4 UUID as its message id (what an app
    /// server puts in the payload, as OneSignal's `custom.i` is). Pass it to every ``payload``
    /// that delivers this push.
    mutating func newPush() -> UInt32 {
        defer { pushes.append(Self.randomUUID(&pushRandom)) }
        return UInt32(pushes.count)
    }

    /// Records a payload for `kind:id` at `time` (nanoseconds), creating a fresh envelope. `push`
    /// says which push it delivers (``newPush()``); in-app navigations carry none. `completing`
    /// names the action (``tap(key:at:)``) whose completion made it.
    @discardableResult
    mutating func payload(
        intent: Int, kind: RouteKind, id: Int, source: PushSource, push: UInt32 = WorkloadEvent.noPush,
        completing action: UInt32? = nil, at time: Int64
    ) -> PayloadHandle {
        let route = intern(kind, id)
        let envelope = Int32(envelopes.count)
        envelopes.append(nextEnvelope())
        append(time: time, intent: intent, envelope: envelope, route: route, source: source, kind: .payload, push: push)
        if let action { pending[pending.count - 1].action = action }
        return PayloadHandle(envelope: envelope, route: route, push: push, time: time)
    }

    /// One fetch's duration, in ms, from the builder's own stream (``actionTiming``).
    mutating func fetchLatency() -> Double {
        actionTiming.fetchMilliseconds(using: &latencyRandom)
    }

    /// Records a tap at `time` (ms) that starts an action under `key`; returns the action's
    /// number, for ``endAction(_:at:)`` and the payload its completion makes.
    mutating func tap(key: String, at time: Double) -> UInt32 {
        let action = UInt32(keyOfAction.count)
        let keyIndex = actionKeyIndex[key] ?? UInt32(actionKeys.count)
        if keyIndex == actionKeys.count {
            actionKeys.append(key)
            actionKeyIndex[key] = keyIndex
        }
        keyOfAction.append(keyIndex)
        appendActionStep(.started, of: action, at: nanoseconds(milliseconds: time))
        return action
    }

    /// Records the end of `action` at `time` (ms): its operation returned (recorded after the
    /// payload its completion made at the same time, which the operation pushed before exiting).
    mutating func endAction(_ action: UInt32, at time: Double) {
        appendActionStep(.finished, of: action, at: nanoseconds(milliseconds: time))
    }

    /// A tap at `time` (ms) whose action fetches for ``fetchLatency()``, then pushes `kind:id`
    /// for `intent` and finishes. Returns the action and when it finished (ms).
    @discardableResult
    mutating func tappedAction(intent: Int, key: String, kind: RouteKind, id: Int, at time: Double) -> (action: UInt32, end: Double) {
        let action = tap(key: key, at: time)
        let end = time + fetchLatency()
        payload(intent: intent, kind: kind, id: id, source: .asyncCompletion, completing: action,
                at: nanoseconds(milliseconds: end))
        endAction(action, at: end)
        return (action, end)
    }

    /// What may follow `first`, an action for `intent` that pushed `kind:id` (``ActionTimingFacts``):
    /// its completion fired again (a dup), and the user running it again on purpose once it
    /// finished (a new intent, pushing `kind:retapID`). Returns the latest time used (ms).
    mutating func followUps(
        of first: (action: UInt32, end: Double), intent: Int, key: String, kind: RouteKind, id: Int, retapID: Int,
        random: inout SplitMix64
    ) -> Double {
        var latest = first.end
        if random.bernoulli(ActionTimingFacts.doubleCallbackProbability) {
            let again = first.end + random.logNormal(
                median: ActionTimingFacts.doubleCallbackMedianMilliseconds, sigma: 1, clampedTo: 1 ... 10_000)
            payload(intent: intent, kind: kind, id: id, source: .asyncCompletion, completing: first.action,
                    at: nanoseconds(milliseconds: again))
            latest = again
        }
        if random.bernoulli(ActionTimingFacts.wantedRetapProbability) {
            let retap = first.end + random.logNormal(
                median: ActionTimingFacts.wantedRetapMedianMilliseconds, sigma: 1, clampedTo: 500 ... 60_000)
            latest = max(latest, tappedAction(intent: newIntent(), key: key, kind: kind, id: retapID, at: retap).end)
        }
        return latest
    }

    /// An impatient second tap's delay after the first, in ms (``ActionTimingFacts``).
    static func secondTapDelay(using random: inout SplitMix64) -> Double {
        random.logNormal(
            median: ActionTimingFacts.secondTapMedianMilliseconds, sigma: ActionTimingFacts.secondTapSigma,
            clampedTo: ActionTimingFacts.secondTapMilliseconds)
    }

    private mutating func appendActionStep(_ step: ActionRecord.Kind, of action: UInt32, at time: Int64) {
        pending.append(Pending(time: time, sequence: pending.count, intent: -1, envelope: 0, route: .max, source: .max,
                               kind: .background, push: WorkloadEvent.noPush, action: action, actionStep: step))
    }

    /// Records an emit of `payload`'s envelope at `time`, or at the payload's time if earlier: an
    /// envelope cannot be emitted before it exists.
    mutating func emit(of payload: PayloadHandle, intent: Int, source: PushSource, at time: Int64) {
        append(time: max(time, payload.time), intent: intent, envelope: payload.envelope, route: payload.route,
               source: source, kind: .emit, push: payload.push)
    }

    /// Records a relaunch of the app at `time`: it belongs to no intent and is never scored.
    mutating func relaunch(at time: Int64) {
        appendLifecycle(.relaunch, at: time)
    }

    /// Records the app entering the background at `time`: it belongs to no intent and is never
    /// scored.
    mutating func background(at time: Int64) {
        appendLifecycle(.background, at: time)
    }

    private mutating func appendLifecycle(_ kind: EventKind, at time: Int64) {
        pending.append(Pending(time: time, sequence: pending.count, intent: -1, envelope: 0,
                               route: .max, source: .max, kind: kind, push: WorkloadEvent.noPush))
    }

    /// Sorts, labels and packages the events; ``Workload/pushes`` lists the delivered pushes in
    /// order of first delivery. Envelopes get their slots here, in order of first appearance,
    /// through a flat array: every payload creates a fresh random id and its emits sort after it.
    ///
    /// - Complexity: O(*n* log *n*).
    mutating func finish(name: String, summary: String) -> Workload {
        pending.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        var seen = [Bool](repeating: false, count: intentCount)
        var events = WorkloadEvents()
        events.reserveCapacity(pending.count)
        events.columns.envelopeTable.reserveCapacity(envelopes.count)
        var slots = [Int32](repeating: -1, count: envelopes.count)
        // Pushes renumbered by first delivery in processing order, and pushes never delivered
        // dropped: the order a trace import rebuilds, so export then import gives the same indices.
        var renumbered = [UInt32](repeating: WorkloadEvent.noPush, count: pushes.count)
        var delivered: [EnvelopeID] = []
        for index in pending.indices where pending[index].push != WorkloadEvent.noPush {
            let original = Int(pending[index].push)
            if renumbered[original] == WorkloadEvent.noPush {
                renumbered[original] = UInt32(delivered.count)
                delivered.append(pushes[original])
            }
            pending[index].push = renumbered[original]
        }
        // Actions renumbered in order of their start in processing order, as a trace import
        // numbers them.
        var actions = ActionLog()
        actions.keys = actionKeys
        var actionNumber = [UInt32](repeating: Self.noAction, count: keyOfAction.count)
        // Per intent, the first action tapped among those whose completion it has.
        var firstAction = [UInt32](repeating: Self.noAction, count: intentCount)
        for item in pending where item.actionStep == nil && item.action != Self.noAction {
            firstAction[item.intent] = min(firstAction[item.intent], item.action)
        }
        for item in pending {
            if let step = item.actionStep {
                if step == .started {
                    actionNumber[Int(item.action)] = UInt32(actions.tokens.count)
                    actions.tokens.append("a\(actions.tokens.count)")
                }
                actions.records.append(ActionRecord(
                    position: events.count, time: Timestamp(nanoseconds: item.time), kind: step,
                    action: actionNumber[Int(item.action)], key: keyOfAction[Int(item.action)]))
                continue
            }
            if item.action != Self.noAction {
                actions.completions.append(ActionCompletion(event: events.count, action: actionNumber[Int(item.action)]))
            }
            if item.kind.isLifecycle {
                events.append(item.kind == .relaunch
                    ? .relaunch(at: Timestamp(nanoseconds: item.time)) : .background(at: Timestamp(nanoseconds: item.time)))
                continue
            }
            let truth: Truth
            if item.action != Self.noAction {
                // The user wants the screen of the action they tapped first, whichever fetch ends
                // first: a loading guard that ignores the later tap loses nothing.
                truth = item.action == firstAction[item.intent] && !seen[item.intent] ? .new : .dup
            } else {
                truth = seen[item.intent] ? .dup : .new
            }
            if item.action == Self.noAction || item.action == firstAction[item.intent] { seen[item.intent] = true }
            if slots[Int(item.envelope)] < 0 {
                slots[Int(item.envelope)] = Int32(events.columns.envelopeTable.count)
                events.columns.envelopeTable.append(envelopes[Int(item.envelope)])
            }
            events.append(WorkloadEvent(
                time: Timestamp(nanoseconds: item.time), kind: item.kind, envelope: envelopes[Int(item.envelope)],
                fingerprint: fingerprints[Int(item.route)], route: item.route, source: item.source, truth: truth,
                push: item.push), slot: slots[Int(item.envelope)])
        }
        events.columns.actions = actions
        pending = []
        envelopes = []
        return Workload(name: name, summary: summary, routes: routes, sources: PushSource.labels, events: events,
                        pushes: delivered)
    }

    private mutating func append(
        time: Int64, intent: Int, envelope: Int32, route: UInt32, source: PushSource, kind: EventKind, push: UInt32
    ) {
        pending.append(Pending(time: time, sequence: pending.count, intent: intent, envelope: envelope,
                               route: route, source: source.index, kind: kind, push: push))
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
        Self.randomUUID(&envelopeRandom)
    }

    /// A random version-4 UUID from `random`.
    private static func randomUUID(_ random: inout SplitMix64) -> EnvelopeID {
        let high = random.next() & ~0xf000 | 0x4000
        let low = random.next() & ~(0xc << 60) | (0x8 << 60)
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
