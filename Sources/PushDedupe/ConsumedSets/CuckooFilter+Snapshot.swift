extension CuckooFilter: SnapshottableConsumedSet {
    /// The geometry, the FIFO ring's position, the kick generator's state, the counters, and the
    /// bucket table and ring word for word.
    ///
    /// - Complexity: O(table + ring words).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 8 * (_table.count + _ring.count) + 64)
        writer.write(fingerprintBits, bucketCount, capacity, _head, _retained, _random.state, _evictionCount, _failedChains)
        writer.write(words: _table)
        writer.write(words: _ring)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores the table and ring into a filter of `configuration`, which must give the same
    /// geometry.
    ///
    /// - Complexity: O(table + ring words).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let (bits, buckets, capacity, head, retained, state, evictions, failures): (Int, Int, Int, Int, Int, UInt64, Int, Int) =
            try reader.read()
        self = try Self._empty(configuration)
        guard bits == fingerprintBits, buckets == bucketCount, capacity == self.capacity else {
            throw .incompatible(
                "snapshot has \(buckets) buckets of \(bits)-bit fingerprints for \(capacity) ids; this configuration gives "
                    + "\(bucketCount) of \(fingerprintBits) bits for \(self.capacity)")
        }
        guard retained <= capacity, head < Swift.max(1, capacity) else {
            throw .malformed("ring position \(head) with \(retained) ids is outside a capacity of \(capacity)")
        }
        let table = try reader.readWords(expectedCount: self._table.count, field: "the bucket table")
        let ring = try reader.readWords(expectedCount: self._ring.count, field: "the FIFO ring")
        try reader.finish()
        _table = table
        _ring = ring
        _head = head
        _retained = retained
        _random.state = state
        _evictionCount = evictions
        _failedChains = failures
    }
}
