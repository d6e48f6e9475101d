extension FIFOSet {
    /// Runs `_checkInvariants()` in builds with internal checks; compiles to nothing otherwise.
    @inlinable @inline(__always)
    func _checkAfterConsume() {
        #if PUSHDEDUPE_INTERNAL_CHECKS
        _checkInvariants()
        #endif
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks the ring's bookkeeping and the lanes. The lane walk is O(`capacity`), so it runs
    /// only for capacities up to 256; larger sets check the newest slot, which every accepting
    /// `consume` writes, so the 10⁶-id tests stay fast.
    @usableFromInline
    func _checkInvariants() {
        let capacity = _geometry.capacity
        precondition(_count >= 0 && _count <= capacity, "count \(_count) outside 0...\(capacity)")
        precondition(capacity == 0 ? _next == 0 : (0..<capacity).contains(_next), "next slot \(_next) outside the ring")
        precondition(_count == capacity || _next == _count, "a ring that is not full fills in order")
        guard _count > 0 else { return }
        let newest = (_next == 0 ? capacity : _next) - 1
        precondition(contains(_withStorage { _, ring in ring[newest] }), "newest id not found")
        guard capacity <= 256 else { return }
        let sequence = _accepted & _geometry.sequenceMask
        var retainedAges: Set<UInt32> = []
        let lanes = _lanes
        for (index, lane) in lanes.enumerated() {
            let age = (sequence &- lane) & _geometry.sequenceMask
            // The cursor restamps a lane at least once per pass.
            precondition(age >= 1 && age <= capacity + lanes.count / _geometry.sweptLanesPerAccept, "lane \(index) is \(age) accepts old, past the cursor's bound")
            let isEntry = index % Self.lanesPerGroup < Self.entryLanes
            if isEntry && Int(age) <= _count {
                precondition(retainedAges.insert(age).inserted, "two lanes hold the id \(age) accepts old")
            }
        }
        precondition(retainedAges.count == _count, "\(retainedAges.count) retained lanes for \(_count) ids")
        for age in 1..._count {
            let slot = (_next - age + capacity) % capacity
            precondition(contains(_withStorage { _, ring in ring[slot] }), "id accepted \(age) accepts ago not found")
        }
    }
    #endif
}
