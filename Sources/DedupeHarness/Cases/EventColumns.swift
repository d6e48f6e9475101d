import DedupeWorkloads
import PushDedupe

/// A workload's events pre-extracted into flat arrays, so the measured loops read plain memory
/// and never touch the generator or its strings.
///
/// Compact, because a replayed recording may hold 10⁷ events: 28 bytes an event (time,
/// fingerprint, route, source, truth, one flags byte, a dense envelope slot) and 16 bytes per
/// distinct envelope (`envelopeTable`), where a ``WorkloadEvent`` takes 48. Envelopes get dense
/// slots in order of first appearance, so the loops track which envelopes exist in a flat `Bool`
/// buffer instead of a hash table, and the columns of another identity
/// (``reidentified(_:pushes:identity:)``) share every array but the slots and the table.
struct EventColumns: Sendable, Equatable {
    var times: [Timestamp]
    var fingerprints: [RouteFingerprint]
    var routes: [UInt32]
    /// Index into the workload's `sources`.
    var sources: [UInt16]
    var truths: [Truth]
    var flags: [EventFlags]
    /// Dense index of each event's envelope into ``envelopeTable``, in order of first appearance
    /// (0 for a lifecycle marker, which names none).
    var envelopeSlot: [Int32]
    /// The envelope id of each slot.
    var envelopeTable: [EnvelopeID]
    /// The indices of the relaunches, ascending.
    var relaunches: [Int]
    /// The indices of the lifecycle markers (relaunches and backgrounds), ascending: the points
    /// where the loops leave the strategies' per-event path.
    var lifecycle: [Int]

    var count: Int { times.count }
    /// Number of distinct envelopes.
    var envelopeCount: Int { envelopeTable.count }

    /// The envelope of event `i`.
    @inline(__always) func envelope(_ i: Int) -> EnvelopeID { envelopeTable[Int(envelopeSlot[i])] }
    /// Whether event `i` is a payload (otherwise an emit or a lifecycle marker).
    @inline(__always) func isPayload(_ i: Int) -> Bool { flags[i].contains(.payload) }
    /// Whether event `i` is a relaunch of the app.
    @inline(__always) func isRelaunch(_ i: Int) -> Bool { flags[i].contains(.relaunch) }
    /// Whether event `i` is a lifecycle marker: a relaunch or the app entering the background.
    @inline(__always) func isLifecycle(_ i: Int) -> Bool { flags[i].contains(.lifecycle) }
    /// Whether an emit's envelope was created by a payload earlier in the workload (always `true`
    /// for payloads and lifecycle markers). An emit whose envelope no payload created (possible
    /// only in a hand-built workload: the generators and the trace reader never make one) is
    /// taken to refer to an envelope created before the workload, which exists.
    @inline(__always) func hasCreator(_ i: Int) -> Bool { flags[i].contains(.hasCreator) }
    /// Whether event `i` is a payload a button or an async completion made.
    @inline(__always) func isTapped(_ i: Int) -> Bool { flags[i].contains(.tapped) }
    /// Whether event `i` is a payload an async completion made.
    @inline(__always) func isAsyncCompletion(_ i: Int) -> Bool { flags[i].contains(.asyncCompletion) }

    /// The kind of event `i`.
    func kind(_ i: Int) -> EventKind {
        let flags = flags[i]
        if flags.contains(.relaunch) { return .relaunch }
        if flags.contains(.lifecycle) { return .background }
        return flags.contains(.payload) ? .payload : .emit
    }

    /// The columns of `events` with the envelope ids layer 2 sees under `identity`: each event's
    /// own envelope (`minted`), or, under `push-id`, `pushes[push]` for every delivery that
    /// carries a push (an emit carries its creating payload's), so all deliveries of one push are
    /// one envelope.
    ///
    /// - Complexity: O(*n*) expected, with a 4-byte index entry per bucket (at most two buckets
    ///   per distinct envelope) beside the columns while it builds.
    init(_ events: some Collection<WorkloadEvent>, pushes: [EnvelopeID] = [], identity: EnvelopeIdentity = .minted) {
        let n = events.count
        times = []; times.reserveCapacity(n)
        fingerprints = []; fingerprints.reserveCapacity(n)
        routes = []; routes.reserveCapacity(n)
        sources = []; sources.reserveCapacity(n)
        truths = []; truths.reserveCapacity(n)
        flags = []; flags.reserveCapacity(n)
        relaunches = []
        lifecycle = []
        for event in events {
            var eventFlags: EventFlags = []
            if event.kind == .payload { eventFlags.insert(.payload) }
            if event.kind == .relaunch {
                eventFlags.insert(.relaunch)
                relaunches.append(times.count)
            }
            if event.kind.isLifecycle {
                eventFlags.insert(.lifecycle)
                lifecycle.append(times.count)
            }
            times.append(event.time)
            fingerprints.append(event.fingerprint)
            routes.append(event.route)
            sources.append(event.source)
            truths.append(event.truth)
            flags.append(eventFlags)
        }
        envelopeSlot = []
        envelopeTable = []
        assignSlots(events, pushes: pushes, identity: identity)
    }

    /// The same events under `identity`: every column shared with `self` (copy-on-write) except
    /// the slots and the envelope table, and the flags only where an emit's creator differs (a
    /// hand-built workload). `events` must be the events `self` was built from.
    ///
    /// - Complexity: O(*n*) expected.
    func reidentified(_ events: some Collection<WorkloadEvent>, pushes: [EnvelopeID], identity: EnvelopeIdentity) -> EventColumns {
        var columns = self
        columns.assignSlots(events, pushes: pushes, identity: identity)
        return columns
    }

    /// Numbers the envelopes `identity` gives `events` densely in order of first appearance and
    /// sets each event's creator flag.
    private mutating func assignSlots(_ events: some Collection<WorkloadEvent>, pushes: [EnvelopeID], identity: EnvelopeIdentity) {
        var slots = [Int32](); slots.reserveCapacity(events.count)
        var table: [EnvelopeID] = []
        var index = _EnvelopeSlotIndex()
        // Per slot: whether a payload has created the envelope yet.
        var created: [Bool] = []
        for (i, event) in events.enumerated() {
            let hasCreator: Bool
            if event.kind.isLifecycle {
                slots.append(0)
                hasCreator = true
            } else {
                let pushed = identity == .pushID && Int(event.push) < pushes.count
                let slot = index.slot(of: pushed ? pushes[Int(event.push)] : event.envelope, in: &table)
                if Int(slot) == created.count { created.append(false) }
                if event.kind == .payload { created[Int(slot)] = true }
                slots.append(slot)
                hasCreator = created[Int(slot)]
            }
            // Written only where it differs, so the flags stay shared for every workload the
            // generators and the trace reader make.
            if flags[i].contains(.hasCreator) != hasCreator {
                if hasCreator { flags[i].insert(.hasCreator) } else { flags[i].remove(.hasCreator) }
            }
        }
        envelopeSlot = slots
        envelopeTable = table
    }

    /// The columns of the events at `indices` (ascending), envelope slots renumbered densely in
    /// order of first appearance: equal to the columns built from those events.
    ///
    /// - Complexity: O(`indices.count` + `envelopeCount`), no hashing.
    private func selecting(_ indices: some Collection<Int>) -> EventColumns {
        var selected = self
        selected.times = indices.map { times[$0] }
        selected.fingerprints = indices.map { fingerprints[$0] }
        selected.routes = indices.map { routes[$0] }
        selected.sources = indices.map { sources[$0] }
        selected.truths = indices.map { truths[$0] }
        selected.flags = indices.map { flags[$0] }
        selected.relaunches = selected.flags.indices.filter { selected.flags[$0].contains(.relaunch) }
        selected.lifecycle = selected.flags.indices.filter { selected.flags[$0].contains(.lifecycle) }
        var renumbered = [Int32](repeating: -1, count: envelopeCount)
        var table: [EnvelopeID] = []
        selected.envelopeSlot = indices.map { index in
            guard !flags[index].contains(.lifecycle) else { return 0 }
            let slot = Int(envelopeSlot[index])
            if renumbered[slot] < 0 {
                renumbered[slot] = Int32(table.count)
                table.append(envelopeTable[slot])
            }
            return renumbered[slot]
        }
        selected.envelopeTable = table
        return selected
    }

    /// The columns with the payloads of in-app taps flagged, by the workload's source `labels`:
    /// the guarded mode's loading guard replays them.
    ///
    /// - Complexity: O(*n*).
    func flaggingTaps(labels: [String]) -> EventColumns {
        let label = { (kind: PushSource) in labels.firstIndex(of: kind.rawValue).map(UInt16.init) }
        let button = label(.button), async = label(.asyncCompletion)
        guard button != nil || async != nil else { return self }
        var flagged = self
        for i in flags.indices where isPayload(i) {
            if sources[i] == async {
                flagged.flags[i].formUnion([.tapped, .asyncCompletion])
            } else if sources[i] == button {
                flagged.flags[i].insert(.tapped)
            }
        }
        return flagged
    }

    /// The first `count` events, as `EventColumns(events.prefix(count))` would build them.
    func prefix(_ count: Int) -> EventColumns {
        count >= self.count ? self : selecting(0..<max(0, count))
    }

    /// The payloads only (a window's input), as `EventColumns(events.filter { $0.kind == .payload })`
    /// would build them.
    func payloads() -> EventColumns {
        selecting(flags.indices.filter { flags[$0].contains(.payload) })
    }

    /// Distinct envelopes among the first `count` events: slots are numbered in order of first
    /// appearance, so they are the slots below the largest one seen, plus one.
    ///
    /// - Complexity: O(`count`).
    func envelopeCount(inFirst count: Int) -> Int {
        var highest: Int32 = -1
        for i in 0..<min(count, self.count) where !flags[i].contains(.lifecycle) { highest = max(highest, envelopeSlot[i]) }
        return Int(highest) + 1
    }
}

/// An event's kind and creator in one byte.
struct EventFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let payload = EventFlags(rawValue: 1 << 0)
    static let relaunch = EventFlags(rawValue: 1 << 1)
    /// A relaunch or a background.
    static let lifecycle = EventFlags(rawValue: 1 << 2)
    /// See ``EventColumns/hasCreator(_:)``.
    static let hasCreator = EventFlags(rawValue: 1 << 3)

    /// A payload a tap in the app made: a button's, or an async completion's.
    static let tapped = EventFlags(rawValue: 1 << 4)
    /// A payload an async task's completion made (``PushSource/asyncCompletion``).
    static let asyncCompletion = EventFlags(rawValue: 1 << 5)

    /// Every bit in use: a file's flags with others set are not this build's.
    static let all: EventFlags = [.payload, .relaunch, .lifecycle, .hasCreator, .tapped, .asyncCompletion]
}
