/// An open-addressing index from envelope ids to slot numbers in a caller-owned array of ids.
///
/// The exact consumed sets (`BoundedLRU`, `FIFOSet`, `RotatingSets`) keep their ids in a slab or
/// ring and use this table only to find an id's slot. A bucket is one `UInt32`: zero when empty,
/// otherwise `slot + 1` in the low bits and, in the bits the slot number does not need, the
/// entry's distance from its home bucket (up to 7 bits, saturating) and a tag of the id's hash.
/// Loading an id from the caller's array is the cache miss that dominates every operation: the tag
/// lets a probe skip most foreign buckets without it, and the distance lets a deletion shift
/// entries back without rehashing their ids (only a saturated distance needs the id).
///
/// Probing is linear from `hash64 & mask`; the table has at least two buckets per nameable slot,
/// so the load factor never exceeds 0.5. Deletion shifts later entries of the run back into the
/// hole (Knuth's algorithm R), so there are no tombstones and lookups never slow down with churn.
///
/// Every method that compares or rehashes ids takes the caller's id array: the entry in slot `s`
/// is `keys[s]`.
@usableFromInline
struct _SlotIndex {
    /// Zero: empty. Otherwise `tag | distance << _distanceShift | (slot + 1)`.
    @usableFromInline var _buckets: [UInt32]
    @usableFromInline var _bucketMask: Int
    /// The low bits of a bucket that hold `slot + 1`.
    @usableFromInline var _slotMask: UInt32
    /// The bits above them that hold the distance from home, saturating at `_distanceLimit`.
    @usableFromInline var _distanceShift: UInt32
    /// The largest distance field; it means "this far or farther: rehash the id". Zero when no
    /// bits are left for the field, so every distance is then recomputed.
    @usableFromInline var _distanceLimit: UInt32
    /// The remaining high bits, which hold the same bits of the hash's upper half.
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
        let distanceBits = min(7, 32 - slotBits)
        self._buckets = Array(repeating: 0, count: bucketCount)
        self._bucketMask = bucketCount - 1
        self._slotMask = (1 << UInt32(slotBits)) - 1
        self._distanceShift = UInt32(slotBits)
        self._distanceLimit = (1 << UInt32(distanceBits)) - 1
        self._tagMask = ~(_slotMask | _distanceLimit << _distanceShift)
        self.slotCapacity = slotCapacity
    }

    /// Validates a configured capacity for a set whose slots this index names.
    static func validatedSlotCapacity(_ capacity: Int, strategy: String) throws(ConfigurationError) -> Int {
        guard capacity >= 0 else {
            throw ConfigurationError(
                strategy: strategy, parameter: "capacity", reason: "must not be negative, got \(capacity)")
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
    @inlinable @inline(__always)
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

    /// The bucket for `slot` at `distance` from its home.
    @inlinable @inline(__always)
    func _entry(slot: Int, tag: UInt32, distance: Int) -> UInt32 {
        let field = UInt32(truncatingIfNeeded: Swift.min(distance, Int(_distanceLimit)))
        return tag | field &<< _distanceShift | UInt32(truncatingIfNeeded: slot &+ 1)
    }

    /// The distance of the entry in `bucket` from its home, rehashing its id only when the
    /// stored field saturated.
    @inlinable @inline(__always)
    func _distance(of entry: UInt32, at bucket: Int, keys: [EnvelopeID]) -> Int {
        let field = (entry &>> _distanceShift) & _distanceLimit
        if field < _distanceLimit { return Int(field) }
        let home = Int(truncatingIfNeeded: keys[Int(entry & _slotMask) &- 1].hash64) & _bucketMask
        return (bucket &- home) & _bucketMask
    }

    /// Records `slot` in `bucket`, an empty bucket returned by `find` since the last change.
    ///
    /// - Complexity: O(1).
    @inlinable
    mutating func insert(slot: Int, hash: UInt64, at bucket: Int) {
        let distance = (bucket &- Int(truncatingIfNeeded: hash)) & _bucketMask
        _buckets[bucket] = _entry(slot: slot, tag: _tag(hash), distance: distance)
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
        var hole = Int(truncatingIfNeeded: hash) & mask
        while _buckets[hole] & slotMask != target { hole = (hole &+ 1) & mask }
        var probe = hole
        while true {
            probe = (probe &+ 1) & mask
            let entry = _buckets[probe]
            if entry == 0 { break }
            // The entry may fill the hole only if the hole lies on its probe path, i.e. it is at
            // least as far from its home as the hole is behind it.
            let distance = _distance(of: entry, at: probe, keys: keys)
            let shift = (probe &- hole) & mask
            if distance >= shift {
                _buckets[hole] = _entry(
                    slot: Int(entry & slotMask) &- 1, tag: entry & _tagMask, distance: distance &- shift)
                hole = probe
            }
        }
        _buckets[hole] = 0
    }

    /// Empties every bucket, keeping the storage.
    ///
    /// - Complexity: O(bucket count).
    @inlinable
    mutating func removeAll() {
        _buckets.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// Empties the table, given the ids of all its entries (slot `s` is `keys[s]` for every slot
    /// in `0..<keys.count`): zeroes just their buckets when they are few, so a table sized for
    /// an earlier burst does not cost a full wipe. Removing every entry needs no backward shift,
    /// and each search matches its slot number rather than stopping at an empty bucket, so
    /// buckets zeroed earlier in the loop cannot cut it short.
    ///
    /// - Complexity: O(min(`keys.count`, bucket count)) expected.
    @inlinable
    mutating func removeAll(keys: [EnvelopeID]) {
        guard keys.count &* 8 < _buckets.count else { return removeAll() }
        let mask = _bucketMask
        let slotMask = _slotMask
        for (slot, id) in keys.enumerated() {
            let target = UInt32(truncatingIfNeeded: slot &+ 1)
            var bucket = Int(truncatingIfNeeded: id.hash64) & mask
            while _buckets[bucket] & slotMask != target { bucket = (bucket &+ 1) & mask }
            _buckets[bucket] = 0
        }
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
            let distance = (found.bucket &- Int(truncatingIfNeeded: hash)) & _bucketMask
            precondition(
                _distance(of: _buckets[found.bucket], at: found.bucket, keys: keys) == distance,
                "slot \(slot) stores a wrong distance from home")
        }
        let occupied = _buckets.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
        precondition(occupied == expected, "index holds \(occupied) entries, expected \(expected)")
        precondition(2 * occupied <= _buckets.count, "load factor above 0.5")
    }
    #endif
}
