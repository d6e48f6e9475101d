/// An open-addressing index from envelope ids to slot numbers in a caller-owned array of ids.
///
/// The exact consumed sets (`BoundedLRU`, `FIFOSet`, `RotatingSets`) keep their ids in a slab or
/// ring and use this table only to find an id's slot. A bucket is one `UInt32`: zero when empty,
/// otherwise `slot + 1` in the low bits and, in the bits the slot number does not need, the top
/// bits of the id's hash as a tag. The tag lets a probe skip most foreign buckets without loading
/// their id, which is the cache miss that dominates a lookup.
///
/// Probing is linear from `hash64 & mask`; the table has at least two buckets per nameable slot,
/// so the load factor never exceeds 0.5. Deletion shifts later entries of the run back into the
/// hole (Knuth's algorithm R), so there are no tombstones and lookups never slow down with churn.
///
/// Every method that compares or rehashes ids takes the caller's id array: the entry in slot `s`
/// is `keys[s]`.
@usableFromInline
struct _SlotIndex {
    /// Zero: empty. Otherwise `tag | (slot + 1)`.
    @usableFromInline var _buckets: [UInt32]
    @usableFromInline var _bucketMask: Int
    /// The low bits of a bucket that hold `slot + 1`.
    @usableFromInline var _slotMask: UInt32
    /// The remaining high bits, which hold hash bits 32 and up.
    @usableFromInline var _tagMask: UInt32
    /// The number of slots the table can name: slot numbers are `0..<slotCapacity`.
    @usableFromInline var slotCapacity: Int

    /// The largest slot capacity any set built on this index accepts: slot numbers and the
    /// `Int32` links of `BoundedLRU` must fit, and the table must stay allocatable.
    @usableFromInline static let maximumSlotCapacity = 1 << 30

    /// A table for slots `0..<slotCapacity`, all buckets empty.
    ///
    /// - Complexity: O(`slotCapacity`).
    @inlinable
    init(slotCapacity: Int) {
        precondition(slotCapacity >= 0 && slotCapacity <= Self.maximumSlotCapacity)
        var bucketCount = 1
        while bucketCount < 2 * slotCapacity { bucketCount &<<= 1 }
        let slotBits = max(1, Int.bitWidth - slotCapacity.leadingZeroBitCount)
        self._buckets = Array(repeating: 0, count: bucketCount)
        self._bucketMask = bucketCount - 1
        self._slotMask = slotBits >= 32 ? .max : (1 << UInt32(slotBits)) - 1
        self._tagMask = ~_slotMask
        self.slotCapacity = slotCapacity
    }

    /// Validates a configured capacity for a set whose slots this index names.
    @usableFromInline
    static func validatedSlotCapacity(_ capacity: Int, strategy: String) throws(ConfigurationError) -> Int {
        guard capacity >= 0 else {
            throw ConfigurationError(strategy: strategy, parameter: "capacity", reason: "must not be negative, got \(capacity)")
        }
        guard capacity <= maximumSlotCapacity else {
            throw ConfigurationError(
                strategy: strategy, parameter: "capacity",
                reason: "must be at most \(maximumSlotCapacity) (2^30), got \(capacity)")
        }
        return capacity
    }

    /// Bytes held by the bucket array.
    @inlinable
    var footprint: Int { _buckets.count * MemoryLayout<UInt32>.stride }

    @inlinable @inline(__always)
    func _tag(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash &>> 32) & _tagMask
    }

    /// Probes for `id`. Returns its slot, or `-1` with `bucket` the empty bucket that ended the
    /// probe, where `insert(slot:hash:at:)` may put it while the table is unchanged.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    func find(_ id: EnvelopeID, hash: UInt64, keys: [EnvelopeID]) -> (slot: Int, bucket: Int) {
        let tag = _tag(hash)
        let mask = _bucketMask
        return _buckets.withUnsafeBufferPointer { buckets in
            var bucket = Int(truncatingIfNeeded: hash) & mask
            while true {
                let entry = buckets[bucket]
                if entry == 0 { return (-1, bucket) }
                if entry & _tagMask == tag {
                    let slot = Int(entry & _slotMask) &- 1
                    if keys[slot] == id { return (slot, bucket) }
                }
                bucket = (bucket &+ 1) & mask
            }
        }
    }

    /// Records `slot` in `bucket`, an empty bucket returned by `find` since the last change.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func insert(slot: Int, hash: UInt64, at bucket: Int) {
        _buckets[bucket] = _tag(hash) | UInt32(truncatingIfNeeded: slot &+ 1)
    }

    /// Records `slot`, whose id (hashing to `hash`) is known to be absent.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    mutating func insertAbsent(slot: Int, hash: UInt64) {
        let mask = _bucketMask
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while _buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        insert(slot: slot, hash: hash, at: bucket)
    }

    /// Removes the entry for `slot`, whose id hashes to `hash`, then shifts the rest of its run
    /// back so that no probe sequence is broken. `keys` must still hold every other entry's id.
    ///
    /// - Complexity: O(1) expected: the length of the run after the hole.
    @inlinable
    mutating func remove(slot: Int, hash: UInt64, keys: [EnvelopeID]) {
        let mask = _bucketMask
        let slotMask = _slotMask
        let target = UInt32(truncatingIfNeeded: slot &+ 1)
        _buckets.withUnsafeMutableBufferPointer { buckets in
            var hole = Int(truncatingIfNeeded: hash) & mask
            while buckets[hole] & slotMask != target { hole = (hole &+ 1) & mask }
            var probe = hole
            while true {
                probe = (probe &+ 1) & mask
                let entry = buckets[probe]
                if entry == 0 { break }
                let home = Int(truncatingIfNeeded: keys[Int(entry & slotMask) &- 1].hash64) & mask
                // The entry may fill the hole only if the hole lies on its probe path, i.e. it is
                // at least as far from the entry's home as from the hole.
                if (probe &- home) & mask >= (probe &- hole) & mask {
                    buckets[hole] = entry
                    hole = probe
                }
            }
            buckets[hole] = 0
        }
    }

    /// Empties every bucket, keeping the storage.
    ///
    /// - Complexity: O(bucket count).
    @inlinable
    mutating func removeAll() {
        _buckets.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    /// Checks that the table names exactly the slots `live` and that each is reachable from its
    /// id's home bucket. O(bucket count); for small tables.
    @usableFromInline
    func _checkInvariants(live: some Sequence<Int>, keys: [EnvelopeID]) {
        var expected = 0
        for slot in live {
            expected += 1
            let hash = keys[slot].hash64
            let found = find(keys[slot], hash: hash, keys: keys)
            precondition(found.slot == slot, "index lost slot \(slot)")
        }
        let occupied = _buckets.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
        precondition(occupied == expected, "index holds \(occupied) entries, expected \(expected)")
        precondition(2 * occupied <= _buckets.count, "load factor above 0.5")
    }
    #endif
}
