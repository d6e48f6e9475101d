extension CuckooFilter: SnapshottableConsumedSet {
    /// The geometry, the FIFO ring's position, the kick generator's state, the counters, and the
    /// bucket table and ring word for word.
    ///
    /// - Complexity: O(table + ring words).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 8 * (table.count + ring.count) + 64)
        writer.write(count: fingerprintBits)
        writer.write(count: bucketCount)
        writer.write(count: capacity)
        writer.write(count: head)
        writer.write(count: retained)
        writer.write(fixed: random.state)
        writer.write(count: evictionCount)
        writer.write(count: failedChains)
        writer.write(words: table)
        writer.write(words: ring)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores the table and ring into a filter of `configuration`, which must give the same
    /// geometry.
    ///
    /// - Complexity: O(table + ring words).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let bits = try reader.readInteger()
        let buckets = try reader.readInteger()
        let capacity = try reader.readInteger()
        let head = try reader.readInteger()
        let retained = try reader.readInteger()
        let state = try reader.readFixed()
        let evictions = try reader.readInteger()
        let failures = try reader.readInteger()
        self = try Self._empty(configuration)
        guard bits == fingerprintBits, buckets == bucketCount, capacity == self.capacity else {
            throw .incompatible(
                "snapshot has \(buckets) buckets of \(bits)-bit fingerprints for \(capacity) ids; this configuration gives "
                    + "\(bucketCount) of \(fingerprintBits) bits for \(self.capacity)")
        }
        guard retained <= capacity, head < Swift.max(1, capacity) else {
            throw .malformed("ring position \(head) with \(retained) ids is outside a capacity of \(capacity)")
        }
        let table = try reader.readWords(expectedCount: self.table.count, field: "the bucket table")
        let ring = try reader.readWords(expectedCount: self.ring.count, field: "the FIFO ring")
        try reader.finish()
        self.table = table
        self.ring = ring
        self.head = head
        self.retained = retained
        random.state = state
        evictionCount = evictions
        failedChains = failures
    }
}
