import PushDedupe

/// A workload's events in processing order, held once, as columns: the ``EventColumns`` the
/// harness's loops read (envelope slots under the minted identity, each event its own envelope)
/// and each event's push. Read as ``WorkloadEvent`` rows, made on access.
///
/// The generators and the trace reader append to it as they produce events, numbering the
/// envelopes as they go, so no later stage converts rows or builds an envelope index again.
package struct WorkloadEvents: RandomAccessCollection, Sendable {
    package var columns: EventColumns
    /// Each event's ``WorkloadEvent/push``: an index into ``Workload/pushes``, or
    /// ``WorkloadEvent/noPush``.
    package var pushes: [UInt32]

    /// No events.
    package init() {
        columns = EventColumns()
        pushes = []
    }

    /// `events` as columns, envelopes numbered in order of first appearance through an envelope
    /// index: for events built by hand, which come without slots.
    ///
    /// - Complexity: O(*n*) expected, with a 4-byte index entry per bucket (at most two buckets
    ///   per distinct envelope) beside the columns while it builds.
    package init(_ events: some Collection<WorkloadEvent>) {
        self.init()
        reserveCapacity(events.count)
        var index = _EnvelopeSlotIndex()
        // Per slot: whether a payload has created the envelope yet.
        var created: [Bool] = []
        for event in events {
            guard !event.kind.isLifecycle else {
                append(event, slot: 0)
                continue
            }
            let slot = index.slot(of: event.envelope, in: &columns.envelopeTable)
            if Int(slot) == created.count { created.append(false) }
            if event.kind == .payload { created[Int(slot)] = true }
            append(event, slot: slot, hasCreator: created[Int(slot)])
        }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { pushes.count }

    package subscript(position: Int) -> WorkloadEvent {
        let kind = columns.kind(position)
        return WorkloadEvent(
            time: columns.times[position], kind: kind,
            envelope: kind.isLifecycle ? EnvelopeID(high: 0, low: 0) : columns.envelope(position),
            fingerprint: columns.fingerprints[position], route: columns.routes[position], source: columns.sources[position],
            truth: columns.truths[position], push: pushes[position])
    }

    package mutating func reserveCapacity(_ count: Int) {
        columns.reserveCapacity(count)
        pushes.reserveCapacity(count)
    }

    /// Appends `event`, its envelope at `slot` of ``EventColumns/envelopeTable`` (which the
    /// caller keeps), created by a payload no later than this event unless `hasCreator` is false.
    package mutating func append(_ event: WorkloadEvent, slot: Int32, hasCreator: Bool = true) {
        columns.append(event, slot: slot, hasCreator: hasCreator)
        pushes.append(event.push)
    }

    /// Appends a lifecycle marker, which names no envelope.
    package mutating func append(_ marker: WorkloadEvent) {
        precondition(marker.kind.isLifecycle, "an event with an envelope needs its slot")
        append(marker, slot: 0)
    }

    /// Keeps the first `count` events, their envelopes renumbered as the columns of those events
    /// number them.
    package mutating func keepFirst(_ count: Int) {
        guard count < self.count else { return }
        columns = columns.prefix(count)
        pushes.removeLast(pushes.count - Swift.max(0, count))
    }

    /// Sets the truth of event `index`.
    package mutating func setTruth(_ truth: Truth, at index: Int) {
        columns.truths[index] = truth
    }
}
