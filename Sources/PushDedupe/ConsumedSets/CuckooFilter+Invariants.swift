extension CuckooFilter {
    #if PUSHDEDUPE_INTERNAL_CHECKS
    package func _checkInvariants() {
        precondition(bucketCount > 0 && bucketCount & (bucketCount - 1) == 0, "bucket count is not a power of two")
        precondition(_retained >= 0 && _retained <= capacity && (capacity == 0 || _head < capacity), "ring out of range")
        var stored = 0
        for index in 0..<bucketCount {
            let value = _bucket(index)
            for slot in 0..<Self.slotsPerBucket where (value &>> UInt64(slot * fingerprintBits)) & ((1 << UInt64(fingerprintBits)) - 1) != 0 {
                stored += 1
            }
        }
        precondition(stored == _retained, "table holds \(stored) fingerprints, ring \(_retained)")
        for offset in 0..<_retained {
            let entry = _CuckooPackedFields.load(at: (_head + offset) % capacity, width: _entryBits, from: _ring)
            let fingerprint = entry & ((1 << UInt64(fingerprintBits)) - 1)
            let first = Int(truncatingIfNeeded: entry >> UInt64(fingerprintBits))
            precondition(
                _slot(of: fingerprint, in: first) != nil || _slot(of: fingerprint, in: _alternate(first, fingerprint)) != nil,
                "a retained id's fingerprint is missing")
        }
    }
    #endif
}
