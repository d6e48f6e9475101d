import PushDedupe

/// A workload's events as flat arrays, the one form a ``Workload`` holds them in
/// (``WorkloadEvents``): the generators and the trace reader append to it, and the harness's
/// measured loops read it by index, never touching the generator or its strings.
///
/// Compact, because a replayed recording may hold 10⁷ events: 28 bytes an event (time,
/// fingerprint, route, source, truth, one flags byte, a dense envelope slot) and 16 bytes per
/// distinct envelope (`envelopeTable`), where a ``WorkloadEvent`` takes 48. Envelopes get dense
/// slots in order of first appearance, so the loops track which envelopes exist in a flat `Bool`
/// buffer instead of a hash table, and the columns of another identity
/// (``reidentified(byPush:ids:)``) share every array but the slots and the table. A lifecycle
/// marker's envelope is not kept: it names none.
///
/// The hot members are `@inlinable public` and the arrays `@usableFromInline`, so the harness's
/// release build inlines them across the module boundary (an `@inlinable package` member is
/// called, not inlined, there).
public struct EventColumns: Sendable, Equatable {
    @usableFromInline package var times: [Timestamp]
    @usableFromInline package var fingerprints: [RouteFingerprint]
    @usableFromInline package var routes: [UInt32]
    /// Index into the workload's `sources`.
    @usableFromInline package var sources: [UInt16]
    @usableFromInline package var truths: [Truth]
    @usableFromInline package var flags: [EventFlags]
    /// Dense index of each event's envelope into ``envelopeTable``, in order of first appearance
    /// (0 for a lifecycle marker, which names none).
    @usableFromInline package var envelopeSlot: [Int32]
    /// The envelope id of each slot.
    @usableFromInline package var envelopeTable: [EnvelopeID]
    /// The indices of the relaunches, ascending.
    @usableFromInline package var relaunches: [Int]
    /// The indices of the lifecycle markers (relaunches and backgrounds), ascending: the points
    /// where the loops leave the strategies' per-event path.
    @usableFromInline package var lifecycle: [Int]
    /// The taps, action ends and action completions the router's loading guard replays; empty
    /// for a workload that records none.
    @usableFromInline package var actions: ActionLog

    @inlinable public var count: Int { times.count }
    /// Number of distinct envelopes.
    @inlinable public var envelopeCount: Int { envelopeTable.count }

    /// The envelope of event `i`.
    @inlinable @inline(__always) public func envelope(_ i: Int) -> EnvelopeID { envelopeTable[Int(envelopeSlot[i])] }
    /// Whether event `i` is a payload (otherwise an emit or a lifecycle marker).
    @inlinable @inline(__always) public func isPayload(_ i: Int) -> Bool { flags[i].contains(.payload) }
    /// Whether event `i` is a relaunch of the app.
    @inlinable @inline(__always) public func isRelaunch(_ i: Int) -> Bool { flags[i].contains(.relaunch) }
    /// Whether event `i` is a lifecycle marker: a relaunch or the app entering the background.
    @inlinable @inline(__always) public func isLifecycle(_ i: Int) -> Bool { flags[i].contains(.lifecycle) }
    /// Whether an emit's envelope was created by a payload earlier in the workload (always `true`
    /// for payloads and lifecycle markers). An emit whose envelope no payload created (possible
    /// only in a hand-built workload: the generators and the trace reader never make one) is
    /// taken to refer to an envelope created before the workload, which exists.
    @inlinable @inline(__always) public func hasCreator(_ i: Int) -> Bool { flags[i].contains(.hasCreator) }
    /// Whether event `i` is a payload an action's completion made (``ActionLog/completions``).
    @inlinable @inline(__always) public func isActionCompletion(_ i: Int) -> Bool { flags[i].contains(.actionCompletion) }

    /// The kind of event `i`.
    @inlinable
    public func kind(_ i: Int) -> EventKind {
        let flags = flags[i]
        if flags.contains(.relaunch) { return .relaunch }
        if flags.contains(.lifecycle) { return .background }
        return flags.contains(.payload) ? .payload : .emit
    }

    /// No events.
    package init() {
        times = []
        fingerprints = []
        routes = []
        sources = []
        truths = []
        flags = []
        envelopeSlot = []
        envelopeTable = []
        relaunches = []
        lifecycle = []
        actions = ActionLog()
    }

    /// Appends `event` with its envelope at `slot` (already in ``envelopeTable``; 0 for a
    /// lifecycle marker) and whether a payload created that envelope before it.
    package mutating func append(_ event: WorkloadEvent, slot: Int32, hasCreator: Bool) {
        var eventFlags: EventFlags = hasCreator || event.kind.isLifecycle ? .hasCreator : []
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
        envelopeSlot.append(event.kind.isLifecycle ? 0 : slot)
    }

    package mutating func reserveCapacity(_ count: Int) {
        times.reserveCapacity(count)
        fingerprints.reserveCapacity(count)
        routes.reserveCapacity(count)
        sources.reserveCapacity(count)
        truths.reserveCapacity(count)
        flags.reserveCapacity(count)
        envelopeSlot.reserveCapacity(count)
    }

    /// The same events with the envelope ids an app keyed on push ids sees: `ids[push]` for every
    /// event whose `pushes[event]` is in range (an emit carries its creating payload's), its own
    /// envelope otherwise, so all deliveries of one push are one envelope. Every column is shared
    /// with `self` (copy-on-write) but the slots and the table, and the flags only where an emit's
    /// creator differs (a hand-built workload).
    ///
    /// Pushes are dense numbers already and the envelopes have slots, so the new slots are a
    /// renumbering through flat arrays, in order of first appearance as an index would number
    /// them. Only the distinct push ids are hashed, so an id that is both a push id and the
    /// envelope of an event without one is one envelope, as it is to the strategies.
    ///
    /// - Complexity: O(*n* + `ids.count`), with 4 bytes per push and per envelope beside the
    ///   columns while it builds.
    package func reidentified(byPush pushes: [UInt32], ids: [EnvelopeID]) -> EventColumns {
        // The distinct push ids, and each push's number among them.
        var distinct: [EnvelopeID] = []
        var index = _EnvelopeSlotIndex()
        let pushNumber = ids.map { index.slot(of: $0, in: &distinct) }
        // The new slot of each distinct push id and of each envelope, -1 until it appears.
        var pushSlot = [Int32](repeating: -1, count: distinct.count)
        var mintedSlot = [Int32](repeating: -1, count: envelopeCount)
        var slots = [Int32](); slots.reserveCapacity(count)
        var table: [EnvelopeID] = []
        // Per slot: whether a payload has created the envelope yet.
        var created: [Bool] = []
        var columns = self
        for i in 0..<count {
            let hasCreator: Bool
            if isLifecycle(i) {
                slots.append(0)
                hasCreator = true
            } else {
                let push = Int(pushes[i]), minted = Int(envelopeSlot[i])
                let slot: Int32
                if push >= ids.count && mintedSlot[minted] >= 0 {
                    slot = mintedSlot[minted]
                } else {
                    // The event's push, or the push whose id its envelope's id also is.
                    let number = push < ids.count ? pushNumber[push] : index.slot(of: envelopeTable[minted], in: distinct)
                    if let number, pushSlot[Int(number)] >= 0 {
                        slot = pushSlot[Int(number)]
                    } else {
                        slot = Int32(table.count)
                        table.append(number.map { distinct[Int($0)] } ?? envelopeTable[minted])
                        created.append(false)
                        if let number { pushSlot[Int(number)] = slot }
                    }
                    if push >= ids.count { mintedSlot[minted] = slot }
                }
                if isPayload(i) { created[Int(slot)] = true }
                slots.append(slot)
                hasCreator = created[Int(slot)]
            }
            // Written only where it differs, so the flags stay shared for every workload the
            // generators and the trace reader make.
            if flags[i].contains(.hasCreator) != hasCreator {
                if hasCreator { columns.flags[i].insert(.hasCreator) } else { columns.flags[i].remove(.hasCreator) }
            }
        }
        columns.envelopeSlot = slots
        columns.envelopeTable = table
        return columns
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
        if !actions.isEmpty {
            var kept = [Bool](repeating: false, count: count)
            for index in indices { kept[index] = true }
            var newPosition = [Int](repeating: 0, count: count)
            for old in 1..<max(1, count) { newPosition[old] = newPosition[old - 1] + (kept[old - 1] ? 1 : 0) }
            selected.actions = actions.selecting(newPosition: newPosition, kept: kept)
        }
        return selected
    }

    /// The columns with the payloads an action's completion made flagged, from ``actions``: the
    /// guarded mode's loop then looks an action up only at those events. An `async_completion`
    /// payload no action record names stays unflagged (`Guides/Harness.md` § The router's
    /// guards, *Traces without action records*).
    ///
    /// - Complexity: O(completions).
    package func flaggingActionCompletions() -> EventColumns {
        guard !actions.completions.isEmpty else { return self }
        var flagged = self
        for completion in actions.completions { flagged.flags[completion.event].insert(.actionCompletion) }
        return flagged
    }

    /// The first `count` events, as the columns of `events.prefix(count)` number them.
    package func prefix(_ count: Int) -> EventColumns {
        count >= self.count ? self : selecting(0..<max(0, count))
    }

    /// The payloads only (a window's input), as the columns of `events.filter { $0.kind == .payload }`
    /// number them.
    package func payloads() -> EventColumns {
        selecting(flags.indices.filter { flags[$0].contains(.payload) })
    }

    /// Distinct envelopes among the first `count` events: slots are numbered in order of first
    /// appearance, so they are the slots below the largest one seen, plus one.
    ///
    /// - Complexity: O(`count`).
    package func envelopeCount(inFirst count: Int) -> Int {
        var highest: Int32 = -1
        for i in 0..<min(count, self.count) where !flags[i].contains(.lifecycle) { highest = max(highest, envelopeSlot[i]) }
        return Int(highest) + 1
    }
}

/// An event's kind and creator in one byte. The members are computed, not stored, so the
/// harness's loops fold them to constants across the module boundary.
public struct EventFlags: OptionSet, Sendable, Hashable, BitwiseCopyable {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    @inlinable public static var payload: EventFlags { EventFlags(rawValue: 1 << 0) }
    @inlinable public static var relaunch: EventFlags { EventFlags(rawValue: 1 << 1) }
    /// A relaunch or a background.
    @inlinable public static var lifecycle: EventFlags { EventFlags(rawValue: 1 << 2) }
    /// See ``EventColumns/hasCreator(_:)``.
    @inlinable public static var hasCreator: EventFlags { EventFlags(rawValue: 1 << 3) }

    /// A payload an action's completion made (``ActionLog/completions``).
    @inlinable public static var actionCompletion: EventFlags { EventFlags(rawValue: 1 << 5) }

    /// Every bit in use: a file's flags with others set are not this build's.
    package static let all: EventFlags = [.payload, .relaunch, .lifecycle, .hasCreator, .actionCompletion]
}
