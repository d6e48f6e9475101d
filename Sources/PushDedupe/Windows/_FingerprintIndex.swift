/// An open-addressing hash table from a fingerprint's 64-bit digest to a small integer (a queue
/// slot), shared by the hash-based windows.
///
/// Linear probing from a Fibonacci-hashed home bucket: the digest times 2⁶⁴/φ, top bits. It is
/// deterministic, costs one multiply, and spreads even structured digests (sequential
/// `RouteFingerprint(rawValue:)` values in tests) across the table. Deletion shifts the rest of
/// the probe run back instead of leaving tombstones, so probe lengths depend only on the
/// current contents, never on the history of deletions.
///
/// The table never grows on its own: its owner keeps `count` at most half of `bucketCount` and
/// rebuilds it larger with `init(minimumCapacity:)` when it needs more room.
@usableFromInline
struct _FingerprintIndex: Sendable {
    @usableFromInline
    struct Bucket: Sendable {
        /// The digest stored here; meaningless while `value` is `_FingerprintIndex.empty`.
        @usableFromInline var key: UInt64
        /// The payload, or `_FingerprintIndex.empty`.
        @usableFromInline var value: Int32

        @inlinable
        init(key: UInt64, value: Int32) {
            self.key = key
            self.value = value
        }
    }

    /// The `value` of an unused bucket. Payloads are never negative.
    @usableFromInline static var empty: Int32 { -1 }

    @usableFromInline var _buckets: ContiguousArray<Bucket>
    /// `bucketCount - 1`; bucket counts are powers of two.
    @usableFromInline let _mask: Int
    /// `64 - log₂(bucketCount)`: the home bucket is the top bits of the Fibonacci product.
    @usableFromInline let _shift: UInt64
    /// Occupied buckets.
    @usableFromInline var count: Int

    /// An empty table with room for `minimumCapacity` keys at a load factor of at most ½.
    ///
    /// - Complexity: O(`minimumCapacity`).
    @inlinable
    init(minimumCapacity: Int) {
        let bucketCount = _powerOfTwo(atLeast: max(2, 2 * minimumCapacity))
        _buckets = ContiguousArray(repeating: Bucket(key: 0, value: Self.empty), count: bucketCount)
        _mask = bucketCount - 1
        _shift = UInt64(64 - bucketCount.trailingZeroBitCount)
        count = 0
    }

    /// The number of buckets, a power of two.
    @inlinable var bucketCount: Int { _mask + 1 }

    /// The most keys the table holds while keeping its load factor at most ½.
    @inlinable var capacity: Int { bucketCount / 2 }

    /// Bytes of bucket storage.
    @inlinable var footprint: Int { bucketCount * MemoryLayout<Bucket>.stride }

    /// Where a probe for `key` starts.
    @inlinable @inline(__always)
    func _home(_ key: UInt64) -> Int {
        Self._home(key, shift: _shift)
    }

    @inlinable @inline(__always)
    static func _home(_ key: UInt64, shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) &>> shift)
    }

    /// The payload stored for `key`, or `nil`.
    ///
    /// - Complexity: O(1) expected at load factor ½.
    @inlinable
    func value(forKey key: UInt64) -> Int32? {
        _buckets.withUnsafeBufferPointer { buckets in
            var position = _home(key)
            while true {
                let bucket = buckets[position]
                if bucket.value == Self.empty { return nil }
                if bucket.key == key { return bucket.value }
                position = (position &+ 1) & _mask
            }
        }
    }

    /// Stores `value` for `key`, which must be absent, in a table below `capacity`.
    ///
    /// - Complexity: O(1) expected at load factor ½.
    @inlinable
    mutating func insertNew(_ key: UInt64, value: Int32) {
        assert(count < capacity && value >= 0)
        let mask = _mask
        var position = _home(key)
        _buckets.withUnsafeMutableBufferPointer { buckets in
            while buckets[position].value != Self.empty {
                position = (position &+ 1) & mask
            }
            buckets[position] = Bucket(key: key, value: value)
        }
        count &+= 1
    }

    /// Stores `value` for `key` and returns `true` if `key` is absent; returns `false` and
    /// changes nothing if it is present. One probe does both the lookup and the insertion. The
    /// table must be below `capacity`.
    ///
    /// - Complexity: O(1) expected at load factor ½.
    @inlinable
    mutating func insertIfAbsent(_ key: UInt64, value: Int32) -> Bool {
        assert(count < capacity && value >= 0)
        let mask = _mask
        var position = _home(key)
        let inserted = _buckets.withUnsafeMutableBufferPointer { buckets in
            while buckets[position].value != Self.empty {
                if buckets[position].key == key { return false }
                position = (position &+ 1) & mask
            }
            buckets[position] = Bucket(key: key, value: value)
            return true
        }
        if inserted { count &+= 1 }
        return inserted
    }

    /// Removes `key`, which must be present, shifting later members of its probe run back so no
    /// tombstone is left.
    ///
    /// - Complexity: O(1) expected at load factor ½.
    @inlinable
    mutating func remove(_ key: UInt64) {
        let mask = _mask
        let shift = _shift
        var hole = _home(key)
        _buckets.withUnsafeMutableBufferPointer { buckets in
            while buckets[hole].key != key || buckets[hole].value == Self.empty {
                assert(buckets[hole].value != Self.empty, "removing an absent key")
                hole = (hole &+ 1) & mask
            }
            // A later member may fill the hole only if the hole lies on its own probe path,
            // i.e. its home is no further along the run than the hole.
            var next = (hole &+ 1) & mask
            while buckets[next].value != Self.empty {
                let home = Self._home(buckets[next].key, shift: shift)
                if (next &- home) & mask >= (next &- hole) & mask {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = (next &+ 1) & mask
            }
            buckets[hole].value = Self.empty
        }
        count &-= 1
    }

    /// Empties the table, keeping its storage.
    ///
    /// - Complexity: O(`bucketCount`), or O(1) when already empty.
    @inlinable
    mutating func removeAll() {
        guard count > 0 else { return }
        _buckets.withUnsafeMutableBufferPointer { buckets in
            buckets.update(repeating: Bucket(key: 0, value: Self.empty))
        }
        count = 0
    }

    /// Calls `body` with every stored key and payload, in bucket order.
    ///
    /// - Complexity: O(`bucketCount`).
    @inlinable
    func forEach(_ body: (UInt64, Int32) -> Void) {
        for bucket in _buckets where bucket.value != Self.empty {
            body(bucket.key, bucket.value)
        }
    }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension _FingerprintIndex {
    /// Checks the count, that no key is stored twice, and that every key is reachable from its
    /// home bucket without crossing an empty one (what backward-shift deletion must preserve).
    ///
    /// - Complexity: O(`bucketCount`) times the longest probe run.
    func _checkInvariants() {
        var occupied = 0
        for position in 0..<bucketCount where _buckets[position].value != Self.empty {
            occupied += 1
            let key = _buckets[position].key
            var probe = _home(key)
            while probe != position {
                precondition(_buckets[probe].value != Self.empty, "key \(key) unreachable from its home")
                precondition(_buckets[probe].key != key, "key \(key) stored twice")
                probe = (probe + 1) & _mask
            }
        }
        precondition(occupied == count, "count \(count) but \(occupied) occupied buckets")
        precondition(count <= capacity, "load factor above one half")
    }
}
#endif
