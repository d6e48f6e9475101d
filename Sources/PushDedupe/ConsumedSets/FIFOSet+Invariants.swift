extension FIFOSet: _InvariantChecked {
    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks the ring's bookkeeping and that the newest id is found, after every consume; walks
    /// the lanes and the ring (O(`capacity`), and O(`capacity`²) when every id shares one home)
    /// on the accepts `_InvariantWalk` schedules, so that the 10⁶-id tests and the long
    /// overflowing-chain tests stay fast.
    @usableFromInline
    func _checkInvariants() {
        let walk = _InvariantWalk.isDue(size: _geometry.capacity, change: _accepted)
        if let violation = _invariantViolation(walk: walk) { preconditionFailure(violation) }
    }

    /// What `_checkInvariants()` would trap on, or `nil`; `walk` adds the full walk. Tests corrupt
    /// a set and expect a message here.
    func _invariantViolation(walk: Bool = true) -> String? {
        let capacity = _geometry.capacity
        guard _count >= 0 && _count <= capacity else { return "count \(_count) outside 0...\(capacity)" }
        guard capacity == 0 ? _next == 0 : (0..<capacity).contains(_next) else { return "next slot \(_next) outside the ring" }
        guard _count == capacity || _next == _count else { return "a ring that is not full fills in order" }
        guard _count > 0 else { return nil }
        let newest = (_next == 0 ? capacity : _next) - 1
        guard contains(_withStorage { _, ring in ring[newest] }) else { return "newest id not found" }
        guard walk else { return nil }
        let sequence = _accepted & _geometry.sequenceMask
        // Indexed by age, not a `Set`: this walk runs on thousands of accepts in debug tests.
        var isRetainedAge = [Bool](repeating: false, count: _count + 1)
        var retainedLanes = 0
        let lanes = _lanes
        for index in lanes.indices {
            let age = (sequence &- lanes[index]) & _geometry.sequenceMask
            // The cursor restamps a lane at least once per pass.
            guard age >= 1 && age <= capacity + lanes.count / _geometry.sweptLanesPerAccept else {
                return "lane \(index) is \(age) accepts old, past the cursor's bound"
            }
            let isEntry = index % Self.lanesPerGroup < Self.entryLanes
            if isEntry && Int(age) <= _count {
                guard !isRetainedAge[Int(age)] else { return "two lanes hold the id \(age) accepts old" }
                isRetainedAge[Int(age)] = true
                retainedLanes += 1
            }
        }
        guard retainedLanes == _count else { return "\(retainedLanes) retained lanes for \(_count) ids" }
        for age in 1..._count {
            let slot = (_next - age + capacity) % capacity
            guard contains(_withStorage { _, ring in ring[slot] }) else { return "id accepted \(age) accepts ago not found" }
        }
        return nil
    }
    #endif
}
