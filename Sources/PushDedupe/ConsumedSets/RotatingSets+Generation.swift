extension RotatingSets {
    /// One generation: an append-only array of ids and a `_SlotIndex` over it, emptied in place
    /// at rotation and doubled only when it outgrows its reservation.
    @usableFromInline
    struct _Generation: Sendable {
        /// Accepted ids in arrival order; slot `s` is `_ids[s]`.
        @usableFromInline var _ids: [EnvelopeID]
        @usableFromInline var _index: _SlotIndex

        @inlinable
        init(reservation: Int) {
            _ids = []
            _ids.reserveCapacity(reservation)
            _index = _SlotIndex(slotCapacity: reservation)
        }

        @inlinable
        var count: Int { _ids.count }

        /// The reserved ids and the index's lanes.
        @inlinable
        var footprint: Int { _index.slotCapacity * MemoryLayout<EnvelopeID>.stride + _index.footprint }

        /// Whether `id` is in this generation.
        @inlinable
        func contains(_ id: EnvelopeID, hash: _SlotHash) -> Bool {
            _index.find(id, hash: hash, keys: _ids) >= 0
        }

        /// Appends an id known to be absent.
        ///
        /// - Complexity: O(1) expected; O(`count`) when the reservation doubles.
        @inlinable
        mutating func append(_ id: EnvelopeID, hash: _SlotHash) {
            let slot = _ids.count
            if slot == _index.slotCapacity { _grow() }
            _ids.append(id)
            _index.insert(slot: slot, hash: hash)
        }

        /// Doubles the reservation and rebuilds the index: the only allocation after warm-up,
        /// and only while the traffic per epoch is still rising.
        @usableFromInline
        mutating func _grow() {
            let reservation = Swift.min(_SlotIndex.maximumSlotCapacity, Swift.max(8, 2 * _index.slotCapacity))
            precondition(reservation > _ids.count, "a generation cannot hold more than 2^30 ids")
            _ids.reserveCapacity(reservation)
            _index = _SlotIndex(slotCapacity: reservation)
            for (slot, id) in _ids.enumerated() {
                _index.insert(slot: slot, hash: _SlotHash(id))
            }
        }

        /// Forgets every id, keeping the storage.
        ///
        /// - Complexity: O(min(`count`, lane count)): a sparse generation unindexes its ids one
        ///   by one instead of wiping a table sized for an earlier burst.
        @inlinable
        mutating func removeAll() {
            guard !_ids.isEmpty else { return }
            _index.removeAll(keys: _ids)
            _ids.removeAll(keepingCapacity: true)
        }
    }
}
