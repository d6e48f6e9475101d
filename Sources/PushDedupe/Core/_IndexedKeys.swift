/// An append-only array of distinct keys with a `_SlotIndex` over it, emptied in place and
/// doubled only when it outgrows its reservation: one generation of `rotating-sets` (ids) and of
/// `epoch-sets` (fingerprint digests).
@usableFromInline
struct _IndexedKeys<Key: _LaneKeyed & Sendable>: Sendable where Key.LaneKey == Key {
    /// Keys in arrival order; slot `s` is `_keys[s]`.
    @usableFromInline var _keys: [Key]
    @usableFromInline var _index: _SlotIndex

    @inlinable
    init(reservation: Int) {
        _keys = []
        _keys.reserveCapacity(reservation)
        _index = _SlotIndex(slotCapacity: reservation)
    }

    @inlinable
    var count: Int { _keys.count }

    /// The reserved keys and the index's lanes.
    @inlinable
    var footprint: Int { _index.slotCapacity * MemoryLayout<Key>.stride + _index.footprint }

    /// Whether `key`, hashing to `hash`, is here.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    func contains(_ key: Key, hash: _SlotHash) -> Bool {
        _index.find(key, hash: hash, keys: _keys) >= 0
    }

    /// Appends a key known to be absent.
    ///
    /// - Complexity: O(1) expected; O(`count`) when the reservation doubles.
    @inlinable
    mutating func append(_ key: Key, hash: _SlotHash) {
        let slot = _keys.count
        if slot == _index.slotCapacity { _grow() }
        _keys.append(key)
        _index.insert(slot: slot, hash: hash)
    }

    /// Doubles the reservation and rebuilds the index: the only allocation after warm-up, and
    /// only while the traffic per generation is still rising.
    ///
    /// Inlinable so that it is specialized for the key type: unspecialized, every element read
    /// went through a generic accessor that allocates.
    @inlinable @inline(never)
    mutating func _grow() {
        let reservation = Swift.min(_SlotIndex.maximumSlotCapacity, Swift.max(8, 2 * _index.slotCapacity))
        precondition(reservation > _keys.count, "a generation cannot hold more than 2^30 keys")
        _keys.reserveCapacity(reservation)
        _index = _SlotIndex(slotCapacity: reservation)
        for slot in 0..<_keys.count {
            _index.insert(slot: slot, hash: _keys[slot].laneKey.slotHash)
        }
    }

    /// Forgets every key, keeping the storage.
    ///
    /// - Complexity: O(min(`count`, lane count)): a sparse generation unindexes its keys one by
    ///   one instead of wiping a table sized for an earlier burst.
    @inlinable
    mutating func removeAll() {
        guard !_keys.isEmpty else { return }
        _index.removeAll(keys: _keys)
        _keys.removeAll(keepingCapacity: true)
    }
}
