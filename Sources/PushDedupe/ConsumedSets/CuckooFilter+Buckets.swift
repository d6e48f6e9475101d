/// Where an id's fingerprint lives (partial-key cuckoo hashing) and the reads and writes of one
/// packed bucket of four f-bit slots.
extension CuckooFilter {
    /// The fingerprint (top f bits of the hash, 0 moved to 1) and first bucket (low bits).
    @inlinable @inline(__always)
    func _locate(_ id: EnvelopeID) -> (fingerprint: UInt64, bucket: Int) {
        let hash = id.hash64
        let fingerprint = hash &>> UInt64(64 - fingerprintBits)
        return (fingerprint == 0 ? 1 : fingerprint, Int(truncatingIfNeeded: hash) & (bucketCount - 1))
    }

    /// The other bucket of a fingerprint found in `bucket`: an involution, so it maps i₂ back to i₁.
    @inlinable @inline(__always)
    func _alternate(_ bucket: Int, _ fingerprint: UInt64) -> Int {
        bucket ^ (Int(truncatingIfNeeded: DeterministicHashing.mix64(fingerprint)) & (bucketCount - 1))
    }

    @inlinable @inline(__always)
    var _bucketBits: Int { Self.slotsPerBucket * fingerprintBits }

    @inlinable @inline(__always)
    func _bucket(_ index: Int) -> UInt64 {
        _CuckooPackedFields.load(at: index, width: _bucketBits, from: _table)
    }

    @inlinable @inline(__always)
    mutating func _setBucket(_ index: Int, _ value: UInt64) {
        _CuckooPackedFields.store(value, at: index, width: _bucketBits, in: &_table)
    }

    @inlinable @inline(__always)
    func _slot(of fingerprint: UInt64, in index: Int) -> Int? {
        let value = _bucket(index)
        let mask: UInt64 = (1 &<< UInt64(fingerprintBits)) - 1
        for slot in 0..<Self.slotsPerBucket where (value &>> UInt64(slot * fingerprintBits)) & mask == fingerprint {
            return slot
        }
        return nil
    }

    /// Swaps `fingerprint` into `slot` of bucket `index` and returns what was there.
    @inlinable @inline(__always)
    mutating func _exchange(_ fingerprint: UInt64, slot: Int, in index: Int) -> UInt64 {
        let value = _bucket(index)
        let shift = UInt64(slot * fingerprintBits)
        let mask: UInt64 = (1 &<< UInt64(fingerprintBits)) - 1
        _setBucket(index, value & ~(mask &<< shift) | fingerprint &<< shift)
        return (value &>> shift) & mask
    }

    @inlinable @inline(__always)
    mutating func _insertIfRoom(_ fingerprint: UInt64, in index: Int) -> Bool {
        guard let empty = _slot(of: 0, in: index) else { return false }
        _ = _exchange(fingerprint, slot: empty, in: index)
        return true
    }
}
