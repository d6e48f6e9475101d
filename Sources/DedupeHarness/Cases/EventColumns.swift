import DedupeWorkloads
import PushDedupe

/// A workload's events pre-extracted into flat arrays, so the measured loops read plain memory
/// and never touch the generator or its strings.
///
/// Envelopes get dense indices (`envelopeSlot`) so the loops can track which envelopes exist in
/// a flat `Bool` buffer instead of a hash table.
struct EventColumns: Sendable, Equatable {
    var times: [Timestamp]
    var fingerprints: [RouteFingerprint]
    var envelopes: [EnvelopeID]
    /// Dense index of each event's envelope, in order of first appearance (0 for a relaunch).
    var envelopeSlot: [Int32]
    /// Whether the event is a payload (otherwise an emit).
    var isPayload: [Bool]
    /// Whether an emit's envelope was created by a payload earlier in the workload. An emit whose
    /// envelope no payload created (possible only in a hand-built workload: the generators and
    /// the trace reader never make one) is taken to refer to an envelope created before the
    /// workload, which exists.
    var hasCreator: [Bool]
    var routes: [UInt32]
    var truths: [Truth]
    /// Whether the event is a relaunch of the app.
    var isRelaunch: [Bool]
    /// Whether the event is a lifecycle marker: a relaunch or the app entering the background.
    var isLifecycle: [Bool]
    /// The indices of the relaunches, ascending.
    var relaunches: [Int]
    /// The indices of the lifecycle markers (relaunches and backgrounds), ascending: the points
    /// where the loops leave the strategies' per-event path.
    var lifecycle: [Int]
    /// Number of distinct envelopes.
    var envelopeCount: Int

    var count: Int { times.count }

    /// The columns of `events` with the envelope ids layer 2 sees under `identity`: each event's
    /// own envelope (`minted`), or, under `push-id`, `pushes[push]` for every delivery that
    /// carries a push (an emit carries its creating payload's), so all deliveries of one push are
    /// one envelope.
    init(_ events: some Collection<WorkloadEvent>, pushes: [EnvelopeID] = [], identity: EnvelopeIdentity = .minted) {
        let n = events.count
        times = []; times.reserveCapacity(n)
        fingerprints = []; fingerprints.reserveCapacity(n)
        envelopes = []; envelopes.reserveCapacity(n)
        envelopeSlot = []; envelopeSlot.reserveCapacity(n)
        isPayload = []; isPayload.reserveCapacity(n)
        hasCreator = []; hasCreator.reserveCapacity(n)
        routes = []; routes.reserveCapacity(n)
        truths = []; truths.reserveCapacity(n)
        isRelaunch = []; isRelaunch.reserveCapacity(n)
        isLifecycle = []; isLifecycle.reserveCapacity(n)
        relaunches = []
        lifecycle = []
        // Built once per workload, outside any timing; iteration order never matters, so Swift's
        // hashing is fine.
        var slots: [EnvelopeID: Int32] = [:]
        // Per slot: whether a payload has created the envelope yet.
        var created: [Bool] = []
        for event in events {
            isRelaunch.append(event.kind == .relaunch)
            if event.kind == .relaunch { relaunches.append(times.count) }
            if event.kind.isLifecycle { lifecycle.append(times.count) }
            isLifecycle.append(event.kind.isLifecycle)
            let slot: Int32
            let envelope = identity == .pushID && Int(event.push) < pushes.count ? pushes[Int(event.push)] : event.envelope
            if event.kind.isLifecycle {
                // Names no envelope; never looked up.
                slot = 0
            } else if let existing = slots[envelope] {
                slot = existing
            } else {
                slot = Int32(slots.count)
                slots[envelope] = slot
                created.append(false)
            }
            times.append(event.time)
            fingerprints.append(event.fingerprint)
            envelopes.append(envelope)
            envelopeSlot.append(slot)
            isPayload.append(event.kind == .payload)
            if event.kind == .payload { created[Int(slot)] = true }
            hasCreator.append(event.kind.isLifecycle || created[Int(slot)])
            routes.append(event.route)
            truths.append(event.truth)
        }
        envelopeCount = slots.count
    }

    /// The columns of the events at `indices` (ascending), envelope slots renumbered densely in
    /// order of first appearance: equal to the columns built from those events.
    ///
    /// - Complexity: O(`indices.count` + `envelopeCount`), no hashing.
    private func selecting(_ indices: some Collection<Int>) -> EventColumns {
        var selected = self
        selected.times = indices.map { times[$0] }
        selected.fingerprints = indices.map { fingerprints[$0] }
        selected.envelopes = indices.map { envelopes[$0] }
        selected.isPayload = indices.map { isPayload[$0] }
        selected.hasCreator = indices.map { hasCreator[$0] }
        selected.routes = indices.map { routes[$0] }
        selected.truths = indices.map { truths[$0] }
        selected.isRelaunch = indices.map { isRelaunch[$0] }
        selected.relaunches = selected.isRelaunch.indices.filter { selected.isRelaunch[$0] }
        selected.isLifecycle = indices.map { isLifecycle[$0] }
        selected.lifecycle = selected.isLifecycle.indices.filter { selected.isLifecycle[$0] }
        var renumbered = [Int32](repeating: -1, count: envelopeCount)
        var next: Int32 = 0
        selected.envelopeSlot = indices.map { index in
            guard !isLifecycle[index] else { return 0 }
            let slot = Int(envelopeSlot[index])
            if renumbered[slot] < 0 {
                renumbered[slot] = next
                next += 1
            }
            return renumbered[slot]
        }
        selected.envelopeCount = Int(next)
        return selected
    }

    /// The first `count` events, as `EventColumns(events.prefix(count))` would build them.
    func prefix(_ count: Int) -> EventColumns {
        count >= self.count ? self : selecting(0..<count)
    }

    /// The payloads only (a window's input), as `EventColumns(events.filter { $0.kind == .payload })`
    /// would build them.
    func payloads() -> EventColumns {
        selecting(isPayload.indices.filter { isPayload[$0] })
    }
}
