import PushDedupe

/// Envelope id → dense slot, for the trace parser, the device profile and the columns: open addressing over
/// `Int32` slot numbers (slot + 1; 0 is empty) whose keys live in the caller's id table, so a
/// bucket costs 4 bytes where a `[EnvelopeID: Int32]` entry costs 20 plus its own load-factor
/// slack. A 10⁷-event trace holds millions of envelopes. Probes use ``EnvelopeID/hash64``, so the
/// layout is the same in every process; nothing iterates it.
package struct _EnvelopeSlotIndex: Sendable {
    private var buckets = [Int32](repeating: 0, count: 1_024)

    package init() {}

    /// The slot of `id` in `table`, or `nil` when it has none.
    ///
    /// - Complexity: O(1) expected.
    package func slot(of id: EnvelopeID, in table: [EnvelopeID]) -> Int32? {
        probe(id, table).slot
    }

    /// The slot of `id`, appending it to `table` when it is new.
    ///
    /// - Complexity: O(1) expected; the buckets double when half full.
    package mutating func slot(of id: EnvelopeID, in table: inout [EnvelopeID]) -> Int32 {
        let found = probe(id, table)
        if let slot = found.slot { return slot }
        let slot = Int32(table.count)
        table.append(id)
        buckets[found.bucket] = slot + 1
        if 2 * table.count > buckets.count { grow(table) }
        return slot
    }

    /// `id`'s slot, or the empty bucket where it would go.
    private func probe(_ id: EnvelopeID, _ table: [EnvelopeID]) -> (slot: Int32?, bucket: Int) {
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: id.hash64) & mask
        while buckets[bucket] != 0 {
            let slot = buckets[bucket] - 1
            if table[Int(slot)] == id { return (slot, bucket) }
            bucket = (bucket + 1) & mask
        }
        return (nil, bucket)
    }

    private mutating func grow(_ table: [EnvelopeID]) {
        buckets = [Int32](repeating: 0, count: 2 * buckets.count)
        let mask = buckets.count - 1
        for (slot, id) in table.enumerated() {
            var bucket = Int(truncatingIfNeeded: id.hash64) & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(slot + 1)
        }
    }
}
