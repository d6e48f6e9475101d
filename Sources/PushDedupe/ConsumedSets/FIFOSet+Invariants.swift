extension FIFOSet {
    /// Runs `_checkInvariants()` in builds with internal checks; compiles to nothing otherwise.
    @inlinable @inline(__always)
    func _checkAfterConsume() {
        #if PUSHDEDUPE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks the ring's bookkeeping and the index. The index walk is O(`capacity`), so it runs
    /// only for capacities up to 256; larger sets check the newest slot, which every accepting
    /// `consume` writes, so the 10⁶-id tests stay fast.
    @usableFromInline
    func _checkInvariants() {
        precondition(_count >= 0 && _count <= _capacity, "count \(_count) outside 0...\(_capacity)")
        precondition(
            _capacity == 0 ? _next == 0 : (0..<_capacity).contains(_next), "next slot \(_next) outside the ring")
        precondition(_count == _capacity || _next == _count, "a ring that is not full fills in order")
        guard _count > 0 else { return }
        let newest = (_next == 0 ? _capacity : _next) - 1
        precondition(
            _index.find(_ids[newest], hash: _ids[newest].hash64, keys: _ids).slot == newest,
            "newest id not indexed at its slot")
        guard _capacity <= 256 else { return }
        _index._checkInvariants(live: 0..<_count, keys: _ids)
    }
    #endif
}
