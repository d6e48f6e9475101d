/// The FIFO ring of retained ids, which says which id is the oldest and where it lives.
extension CuckooFilter {
    /// Records the newest id, `fingerprint` from bucket `first`, at the ring's tail.
    @inlinable @inline(__always)
    mutating func _appendToRing(_ fingerprint: UInt64, _ first: Int) {
        var tail = _head &+ _retained
        if tail >= capacity { tail &-= capacity }
        _CuckooPackedFields.store(
            UInt64(truncatingIfNeeded: first) &<< UInt64(fingerprintBits) | fingerprint,
            at: tail, width: _entryBits, in: &_ring)
        _retained &+= 1
    }

    /// Deletes the oldest retained id from its bucket and the ring, counting an eviction.
    @inlinable
    mutating func _evictOldest() {
        let entry = _CuckooPackedFields.load(at: _head, width: _entryBits, from: _ring)
        let fingerprint = entry & ((1 &<< UInt64(fingerprintBits)) &- 1)
        let first = Int(truncatingIfNeeded: entry &>> UInt64(fingerprintBits))
        if let found = _slot(of: fingerprint, in: first) {
            _ = _exchange(0, slot: found, in: first)
        } else {
            let second = _alternate(first, fingerprint)
            if let found = _slot(of: fingerprint, in: second) { _ = _exchange(0, slot: found, in: second) }
        }
        _head &+= 1
        if _head == capacity { _head = 0 }
        _retained &-= 1
        _evictionCount &+= 1
    }
}
