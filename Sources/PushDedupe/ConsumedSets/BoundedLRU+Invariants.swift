extension BoundedLRU: _InvariantChecked {
    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks the list and the index. The full walk is O(`capacity`), so it runs only for
    /// capacities up to 256 (every conformance sequence); larger sets check the newest and oldest
    /// slots, which every `consume` touches, so the 10⁶-id tests stay fast.
    @usableFromInline
    func _checkInvariants() {
        precondition(_count >= 0 && _count <= _capacity, "count \(_count) outside 0...\(_capacity)")
        precondition((_count == 0) == (_oldest < 0) && (_count == 0) == (_newest < 0), "ends disagree with count")
        guard _count > 0 else { return }
        precondition(_links[Int(_oldest)].older == -1 && _links[Int(_newest)].newer == -1, "list ends are linked")
        precondition(
            _index.find(_ids[Int(_newest)], hash: _SlotHash(_ids[Int(_newest)]), keys: _ids) == Int(_newest),
            "newest id not indexed at its slot")
        guard _capacity <= 256 else { return }
        var walked: [Int] = []
        // Marks rather than a `Set`: this walk runs after every consume in debug tests.
        var isWalked = [Bool](repeating: false, count: _count)
        var slot = _oldest
        var previous: Int32 = -1
        while slot >= 0 {
            // Also bounds the walk: past `_count` slots, the next one is out of range or listed.
            precondition(
                Int(slot) < _count && !isWalked[Int(slot)],
                "slot \(slot) is past the filled slots or listed twice: a cycle or a stray link")
            precondition(_links[Int(slot)].older == previous, "links of slot \(slot) are not symmetric")
            isWalked[Int(slot)] = true
            walked.append(Int(slot))
            previous = slot
            slot = _links[Int(slot)].newer
        }
        precondition(walked.count == _count && previous == _newest, "list holds \(walked.count) of \(_count) slots")
        _index._checkInvariants(live: walked, keys: _ids)
    }
    #endif
}
