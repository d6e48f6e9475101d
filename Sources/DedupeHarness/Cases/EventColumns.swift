import DedupeWorkloads
import PushDedupe

/// A workload's events pre-extracted into flat arrays, so the measured loops read plain memory
/// and never touch the generator or its strings.
///
/// Envelopes get dense indices (`envelopeSlot`) so the loops can track which envelopes exist in
/// a flat `Bool` buffer instead of a hash table.
struct EventColumns: Sendable {
    var times: [Timestamp]
    var fingerprints: [RouteFingerprint]
    var envelopes: [EnvelopeID]
    /// Dense index of each event's envelope.
    var envelopeSlot: [Int32]
    /// Whether the event is a payload (otherwise an emit).
    var isPayload: [Bool]
    /// Whether an emit's envelope was created by a payload earlier in the workload. An emit whose
    /// envelope no payload created (possible only in a hand-built workload: the trace reader
    /// rejects it) is taken to refer to an envelope created before the workload, which exists.
    var hasCreator: [Bool]
    var routes: [UInt32]
    var truths: [Truth]
    /// Whether the event is a relaunch of the app.
    var isRelaunch: [Bool]
    /// The indices of the relaunches, ascending.
    var relaunches: [Int]
    /// Number of distinct envelopes.
    var envelopeCount: Int

    var count: Int { times.count }

    init(_ events: some Collection<WorkloadEvent>) {
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
        relaunches = []
        // Built once, outside any timing; iteration order never matters, so Swift's hashing is fine.
        var slots: [EnvelopeID: Int32] = [:]
        var created: Set<EnvelopeID> = []
        for event in events {
            isRelaunch.append(event.kind == .relaunch)
            if event.kind == .relaunch { relaunches.append(times.count) }
            let slot: Int32
            if event.kind == .relaunch {
                // Names no envelope; never looked up.
                slot = 0
            } else if let existing = slots[event.envelope] {
                slot = existing
            } else {
                slot = Int32(slots.count)
                slots[event.envelope] = slot
            }
            times.append(event.time)
            fingerprints.append(event.fingerprint)
            envelopes.append(event.envelope)
            envelopeSlot.append(slot)
            isPayload.append(event.kind == .payload)
            if event.kind == .payload {
                created.insert(event.envelope)
                hasCreator.append(true)
            } else {
                hasCreator.append(event.kind == .relaunch || created.contains(event.envelope))
            }
            routes.append(event.route)
            truths.append(event.truth)
        }
        envelopeCount = slots.count
    }
}
