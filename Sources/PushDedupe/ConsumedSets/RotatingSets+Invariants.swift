extension RotatingSets: _InvariantChecked {
    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks the epoch bookkeeping and, for generations of up to 256 reserved ids, both indexes
    /// and that no id is in both generations.
    @usableFromInline
    func _checkInvariants() {
        precondition(_clock.started, "consume always starts the clock")
        precondition(_clock.admits(start: _clock.start, latest: _clock.latest), "latest time outside the current epoch")
        for generation in [_current, _previous] {
            precondition(generation.count <= generation._index.slotCapacity, "generation over its reservation")
            guard generation._index.slotCapacity <= 256 else { continue }
            generation._index._checkInvariants(live: 0..<generation.count, keys: generation._keys)
        }
        guard _previous._index.slotCapacity <= 256 else { return }
        for id in _current._keys {
            precondition(!_previous.contains(id, hash: _SlotHash(id)), "id \(id) in both generations")
        }
    }
    #endif
}
