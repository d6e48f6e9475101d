/// A cuckoo filter of consumed envelope ids (`cuckoo`; Fan, Andersen, Kaminsky & Mitzenmacher,
/// "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014) that deletes its oldest id once
/// it holds `capacity`, so it forgets by count like a FIFO set.
///
/// Each id becomes an f-bit fingerprint (never 0, which marks an empty slot) that lives in one of
/// two buckets of 4 slots: i₁ from the id's hash, i₂ = i₁ ⊕ hash(fingerprint) (partial-key cuckoo
/// hashing, so either bucket finds the other). f is the smallest of 8, 12 or 16 with
/// f ≥ log₂(2·4/p). Buckets are packed 4·f bits apart, so f is also the memory per slot. The
/// bucket count is the power of two that keeps `capacity` ids under 95% load.
///
/// A FIFO ring remembers (i₁, fingerprint) of the last `capacity` accepted ids in insertion
/// order, packed in log₂(buckets) + f bits each. Accepting one more deletes the oldest from the
/// table: an eviction.
///
/// Insert failure near full: when both buckets are full, up to 500 kicks move resident
/// fingerprints to their other bucket, choosing the victim slot with a fixed-seed `SplitMix64`.
/// If that chain runs out, every kick is undone (no resident is lost), the oldest id is evicted,
/// and the insert is tried again. Each retry frees a slot and an empty table always has room, so
/// `consume` always stores the new id and ends; ``insertionFailures`` counts the exhausted chains.
///
/// Guarantees:
/// - **Missed duplicates only after an eviction.** An id is deleted only as the oldest, each
///   deletion is counted in ``evictions``, and two live ids never share (bucket pair,
///   fingerprint), so a deletion removes exactly its own id. With no eviction since an id was
///   accepted, its repeat is refused.
/// - **False drops happen**: a never-consumed id is refused when a live id in one of its two
///   buckets has the same fingerprint, with probability ``theoreticalFalsePositiveRate``
///   (about 8α/2^f at load α; under `falsePositiveRate` up to full capacity).
///
/// Memory: f bits per slot, at 47.5–95% load once `capacity` ids are in (about 1.6–3.2 bytes
/// per id for f = 12, the choice at 1%), plus log₂(buckets) + f bits per id for the FIFO ring
/// (3.4 bytes at 65,536 ids and 1%), plus a 4 KB kick log; all fixed at construction.
///
/// - Complexity: `contains` is O(1). `consume` is O(1) expected; a kick chain costs up to 500
///   moves (and as many to undo), and each retry after a failed chain may cost as much again;
///   failures become likely only near 95% load. No allocation after construction.
public struct CuckooFilter: ProbabilisticConsumedSet, Sendable {
    public static let strategyID = "cuckoo"
    public static let guarantee: Guarantee = .mayDrop(forgetting: .afterCapacity)
    /// Fingerprints per bucket (b).
    public static let slotsPerBucket = 4
    /// The longest kick chain tried before evicting the oldest id.
    public static let maximumKicks = 500
    /// The load at which `capacity` ids may sit, from Fan et al. for b = 4.
    public static let maximumLoad = 0.95

    /// Bits per fingerprint (f): 8, 12 or 16.
    public let fingerprintBits: Int
    /// Buckets in the table, a power of two.
    public let bucketCount: Int
    /// The most ids retained.
    public let capacity: Int
    /// Kick chains that ran out, each followed by an eviction and a retry.
    ///
    /// - Complexity: O(1).
    public var insertionFailures: Int { _failedChains }

    /// Packed buckets, 4·f bits each, plus one spare word so a bucket straddling a word boundary
    /// can always be read as two words.
    @usableFromInline var _table: [UInt64]
    /// The FIFO ring: i₁ << f | fingerprint of each retained id, packed `entryBits` apart, oldest
    /// at `head`; one spare word as in `table`.
    @usableFromInline var _ring: [UInt64]
    /// log₂(bucketCount) + f.
    @usableFromInline let _entryBits: Int
    @usableFromInline var _head: Int
    @usableFromInline var _retained: Int
    /// bucket << 2 | slot of each kick in the current chain, so a failed chain can be undone.
    @usableFromInline var _kickLog: [UInt64]
    @usableFromInline var _random: SplitMix64
    @usableFromInline var _evictionCount: Int
    @usableFromInline var _failedChains: Int

    /// Builds an empty filter that retains the last `configuration.capacity` ids at
    /// `configuration.falsePositiveRate`. Retention and rate are ignored.
    ///
    /// - Throws: ``ConfigurationError`` for a negative capacity, a rate outside (0, 1), a rate below
    ///   2·4/2¹⁶ ≈ 1.2e-4 (it would need fingerprints over 16 bits), or a size past 2³⁵ bits (4 GiB) of storage.
    /// - Complexity: O(capacity).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let (bits, buckets) = try Self._geometry(for: configuration)
        self.fingerprintBits = bits
        self.bucketCount = buckets
        self.capacity = configuration.capacity
        self._failedChains = 0
        self._table = Array(repeating: 0, count: (buckets * Self.slotsPerBucket * bits + 63) / 64 + 1)
        let entryBits = buckets.trailingZeroBitCount + bits
        self._entryBits = entryBits
        self._ring = Array(repeating: 0, count: (configuration.capacity * entryBits + 63) / 64 + 1)
        self._head = 0
        self._retained = 0
        self._kickLog = Array(repeating: 0, count: Self.maximumKicks)
        self._random = SplitMix64(seed: 0x4355_434b_4f4f_0001)
        self._evictionCount = 0
    }

    /// Returns `true` unless `id`'s fingerprint is in one of its two buckets; a new id is stored,
    /// evicting the oldest when `capacity` are retained (and again if a kick chain fails). With
    /// a capacity of 0 nothing is retained: every id is accepted and counted as evicted.
    ///
    /// - Complexity: O(1) expected; see the type's notes for kick chains.
    @inlinable @inline(__always)
    @discardableResult
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        guard capacity > 0 else {
            _evictionCount &+= 1
            return true
        }
        let (fingerprint, first) = _locate(id)
        let second = _alternate(first, fingerprint)
        if _slot(of: fingerprint, in: first) != nil || _slot(of: fingerprint, in: second) != nil { return false }
        if _retained == capacity { _evictOldest() }
        // Each failed chain evicts one more id, and an empty table has room in every bucket, so
        // this ends with the id stored.
        while !_place(fingerprint, first, second) {
            _failedChains &+= 1
            _evictOldest()
        }
        _appendToRing(fingerprint, first)
        return true
    }

    /// Whether `id`'s fingerprint is in one of its two buckets.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        guard capacity > 0 else { return false }
        let (fingerprint, first) = _locate(id)
        return _slot(of: fingerprint, in: first) != nil || _slot(of: fingerprint, in: _alternate(first, fingerprint)) != nil
    }
}
