extension RotatingSets {
    /// One generation: an append-only array of ids and a `_SlotIndex` over it, emptied in place
    /// at rotation and doubled only when it outgrows its reservation.
    @usableFromInline
    struct _Generation {
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

        /// The reserved ids and the index's buckets.
        @inlinable
        var footprint: Int { _index.slotCapacity * MemoryLayout<EnvelopeID>.stride + _index.footprint }

        /// The probe result for `id`; see `_SlotIndex.find`.
        @inlinable
        func find(_ id: EnvelopeID, hash: UInt64) -> (slot: Int, bucket: Int) {
            _index.find(id, hash: hash, keys: _ids)
        }

        /// Appends an id known to be absent, at the empty `bucket` that `find` returned.
        ///
        /// - Complexity: O(1) expected; O(`count`) when the reservation doubles.
        @inlinable
        mutating func append(_ id: EnvelopeID, hash: UInt64, at bucket: Int) {
            let slot = _ids.count
            if slot == _index.slotCapacity {
                _grow()
                _ids.append(id)
                _index.insertAbsent(slot: slot, hash: hash)
            } else {
                _ids.append(id)
                _index.insert(slot: slot, hash: hash, at: bucket)
            }
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
                _index.insertAbsent(slot: slot, hash: id.hash64)
            }
        }

        /// Forgets every id, keeping the storage.
        ///
        /// - Complexity: O(min(`count`, bucket count)): a sparse generation unindexes its ids one
        ///   by one instead of wiping a table sized for an earlier burst.
        @inlinable
        mutating func removeAll() {
            guard !_ids.isEmpty else { return }
            _index.removeAll(keys: _ids)
            _ids.removeAll(keepingCapacity: true)
        }
    }
}
