/// What the filter holds and how likely it is to drop a new id.
extension CuckooFilter {
    /// Ids retained: at most `capacity`.
    public var count: Int { _retained }

    /// Bytes of the table, the FIFO ring and the kick log.
    public var footprint: Int { (_table.count + _ring.count + _kickLog.count) * MemoryLayout<UInt64>.stride }

    /// Retained ids deleted as the oldest, to admit a newer one or to make room after a failed
    /// kick chain.
    public var evictions: Int { _evictionCount }

    /// The load α = retained / slots.
    ///
    /// - Complexity: O(1).
    public var loadFactor: Double { Double(_retained) / Double(bucketCount * Self.slotsPerBucket) }

    /// 1 − (1 − 2^−f)^(s·α): each of the s occupied slots a lookup compares against matches with
    /// chance 2^−f; s = 4·(2 − 1/buckets) slots are inspected on average (the two buckets
    /// coincide for one fingerprint in `bucketCount`).
    public var theoreticalFalsePositiveRate: Double {
        guard capacity > 0 else { return 0 }
        let inspected = Double(Self.slotsPerBucket) * (2 - 1 / Double(bucketCount))
        let perSlot = DeterministicMath.pow(2, -Double(fingerprintBits))
        return 1 - DeterministicMath.pow(1 - perSlot, inspected * loadFactor)
    }
}
