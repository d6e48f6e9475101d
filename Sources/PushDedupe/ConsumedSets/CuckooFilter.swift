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
    public var insertionFailures: Int { failedChains }

    /// Packed buckets, 4·f bits each, plus one spare word so a bucket straddling a word boundary
    /// can always be read as two words.
    @usableFromInline var table: [UInt64]
    /// The FIFO ring: i₁ << f | fingerprint of each retained id, packed `entryBits` apart, oldest
    /// at `head`; one spare word as in `table`.
    @usableFromInline var ring: [UInt64]
    /// log₂(bucketCount) + f.
    @usableFromInline let entryBits: Int
    @usableFromInline var head: Int
    @usableFromInline var retained: Int
    /// bucket << 2 | slot of each kick in the current chain, so a failed chain can be undone.
    @usableFromInline var kickLog: [UInt64]
    @usableFromInline var random: SplitMix64
    @usableFromInline var evictionCount: Int
    @usableFromInline var failedChains: Int

    /// Builds an empty filter that retains the last `configuration.capacity` ids at
    /// `configuration.falsePositiveRate`. Retention and rate are ignored.
    ///
    /// - Throws: ``ConfigurationError`` for a negative capacity, a rate outside (0, 1), a rate below
    ///   2·4/2¹⁶ ≈ 1.2e-4 (it would need fingerprints over 16 bits), or a size past 2³⁵ bits (4 GiB) of storage.
    /// - Complexity: O(capacity).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let strategy = Self.strategyID
        try _FilterValidation.capacity(configuration.capacity, strategy: strategy)
        let rate = configuration.falsePositiveRate
        try _FilterValidation.falsePositiveRate(rate, strategy: strategy)
        let needed = DeterministicMath.log(2 * Double(Self.slotsPerBucket) / rate) / DeterministicMath.ln2
        guard let bits = [8, 12, 16].first(where: { Double($0) >= needed }) else {
            throw ConfigurationError(
                strategy: strategy, parameter: "falsePositiveRate",
                reason: "needs \(needed) fingerprint bits; at most 16 are supported, so the rate must be ≥ 8/2^16 ≈ 1.2e-4, got \(rate)")
        }
        let slots = (Double(configuration.capacity) / Self.maximumLoad).rounded(.up)
        // The table, rounded up to a power of two (at most 2 × slots), plus the expiry ring, whose
        // entries also carry a bucket number of at most log₂(slots) bits.
        let ringEntryBits = Double(bits) + (DeterministicMath.log(max(slots, 1)) / DeterministicMath.ln2).rounded(.up)
        try _FilterValidation.size(
            2 * slots * Double(bits) + Double(configuration.capacity) * ringEntryBits,
            parameter: "capacity", strategy: strategy)
        let minimumBuckets = max(1, Int((slots / Double(Self.slotsPerBucket)).rounded(.up)))
        var buckets = 1
        while buckets < minimumBuckets { buckets <<= 1 }
        self.fingerprintBits = bits
        self.bucketCount = buckets
        self.capacity = configuration.capacity
        self.failedChains = 0
        self.table = Array(repeating: 0, count: (buckets * Self.slotsPerBucket * bits + 63) / 64 + 1)
        let entryBits = buckets.trailingZeroBitCount + bits
        self.entryBits = entryBits
        self.ring = Array(repeating: 0, count: (configuration.capacity * entryBits + 63) / 64 + 1)
        self.head = 0
        self.retained = 0
        self.kickLog = Array(repeating: 0, count: Self.maximumKicks)
        self.random = SplitMix64(seed: 0x4355_434b_4f4f_0001)
        self.evictionCount = 0
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
            evictionCount &+= 1
            return true
        }
        let (fingerprint, first) = locate(id)
        let second = alternate(first, fingerprint)
        if slot(of: fingerprint, in: first) != nil || slot(of: fingerprint, in: second) != nil { return false }
        if retained == capacity { evictOldest() }
        var placed = place(fingerprint, first, second)
        while !placed && retained > 0 {
            failedChains &+= 1
            evictOldest()
            placed = place(fingerprint, first, second)
        }
        // `placed` is always true here: an empty table has room in every bucket.
        if placed {
            var tail = head &+ retained
            if tail >= capacity { tail &-= capacity }
            Self.store(UInt64(truncatingIfNeeded: first) &<< UInt64(fingerprintBits) | fingerprint,
                       at: tail, width: entryBits, in: &ring)
            retained &+= 1
        }
        return true
    }

    /// Whether `id`'s fingerprint is in one of its two buckets.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        guard capacity > 0 else { return false }
        let (fingerprint, first) = locate(id)
        return slot(of: fingerprint, in: first) != nil || slot(of: fingerprint, in: alternate(first, fingerprint)) != nil
    }

    // MARK: Hashing

    /// The fingerprint (top f bits of the hash, 0 moved to 1) and first bucket (low bits).
    @inlinable @inline(__always)
    func locate(_ id: EnvelopeID) -> (fingerprint: UInt64, bucket: Int) {
        let hash = id.hash64
        let fingerprint = hash &>> UInt64(64 - fingerprintBits)
        return (fingerprint == 0 ? 1 : fingerprint, Int(truncatingIfNeeded: hash) & (bucketCount - 1))
    }

    /// The other bucket of a fingerprint found in `bucket`: an involution, so it maps i₂ back to i₁.
    @inlinable @inline(__always)
    func alternate(_ bucket: Int, _ fingerprint: UInt64) -> Int {
        bucket ^ (Int(truncatingIfNeeded: DeterministicHashing.mix64(fingerprint)) & (bucketCount - 1))
    }

    // MARK: Packed buckets

    @inlinable @inline(__always)
    var bucketBits: Int { Self.slotsPerBucket * fingerprintBits }

    @inlinable @inline(__always)
    func bucket(_ index: Int) -> UInt64 {
        Self.load(at: index, width: bucketBits, from: table)
    }

    @inlinable @inline(__always)
    mutating func setBucket(_ index: Int, _ value: UInt64) {
        Self.store(value, at: index, width: bucketBits, in: &table)
    }

    /// The `index`-th field of `width` bits (1…64) in `words`, which has a spare word at the end.
    @inlinable @inline(__always)
    static func load(at index: Int, width: Int, from words: [UInt64]) -> UInt64 {
        let offset = index &* width
        let word = offset &>> 6
        let shift = UInt64(truncatingIfNeeded: offset & 63)
        var value = words[word] &>> shift
        if shift != 0 { value |= words[word &+ 1] &<< (64 &- shift) }
        return width == 64 ? value : value & ((1 &<< UInt64(truncatingIfNeeded: width)) &- 1)
    }

    /// Writes `value` (which fits in `width` bits) as the `index`-th field of `words`.
    @inlinable @inline(__always)
    static func store(_ value: UInt64, at index: Int, width: Int, in words: inout [UInt64]) {
        let offset = index &* width
        let word = offset &>> 6
        let shift = UInt64(truncatingIfNeeded: offset & 63)
        let mask: UInt64 = width == 64 ? ~0 : (1 &<< UInt64(truncatingIfNeeded: width)) &- 1
        words[word] = words[word] & ~(mask &<< shift) | value &<< shift
        if shift != 0 && Int(shift) &+ width > 64 {
            let spill = 64 &- shift
            words[word &+ 1] = words[word &+ 1] & ~(mask &>> spill) | value &>> spill
        }
    }

    @inlinable @inline(__always)
    func slot(of fingerprint: UInt64, in index: Int) -> Int? {
        let value = bucket(index)
        let mask: UInt64 = (1 &<< UInt64(fingerprintBits)) - 1
        for slot in 0..<Self.slotsPerBucket where (value &>> UInt64(slot * fingerprintBits)) & mask == fingerprint {
            return slot
        }
        return nil
    }

    /// Swaps `fingerprint` into `slot` of bucket `index` and returns what was there.
    @inlinable @inline(__always)
    mutating func exchange(_ fingerprint: UInt64, slot: Int, in index: Int) -> UInt64 {
        let value = bucket(index)
        let shift = UInt64(slot * fingerprintBits)
        let mask: UInt64 = (1 &<< UInt64(fingerprintBits)) - 1
        setBucket(index, value & ~(mask &<< shift) | fingerprint &<< shift)
        return (value &>> shift) & mask
    }

    @inlinable @inline(__always)
    mutating func insertIfRoom(_ fingerprint: UInt64, in index: Int) -> Bool {
        guard let empty = slot(of: 0, in: index) else { return false }
        _ = exchange(fingerprint, slot: empty, in: index)
        return true
    }

    // MARK: Insertion and deletion

    /// Stores `fingerprint` in one of its buckets, kicking residents along if needed; on failure
    /// undoes every kick and returns `false` with the table as it was.
    @inlinable
    mutating func place(_ fingerprint: UInt64, _ first: Int, _ second: Int) -> Bool {
        if insertIfRoom(fingerprint, in: first) || insertIfRoom(fingerprint, in: second) { return true }
        var homeless = fingerprint
        var index = random.next() & 1 == 0 ? first : second
        for kick in 0..<Self.maximumKicks {
            let victimSlot = Int(truncatingIfNeeded: random.next() & 3)
            homeless = exchange(homeless, slot: victimSlot, in: index)
            kickLog[kick] = UInt64(truncatingIfNeeded: index) &<< 2 | UInt64(truncatingIfNeeded: victimSlot)
            index = alternate(index, homeless)
            if insertIfRoom(homeless, in: index) { return true }
        }
        // Swapping back in reverse order restores every resident and leaves the new one homeless.
        for kick in (0..<Self.maximumKicks).reversed() {
            let entry = kickLog[kick]
            homeless = exchange(homeless, slot: Int(truncatingIfNeeded: entry & 3), in: Int(truncatingIfNeeded: entry &>> 2))
        }
        return false
    }

    /// Deletes the oldest retained id from its bucket and the ring, counting an eviction.
    @inlinable
    mutating func evictOldest() {
        let entry = Self.load(at: head, width: entryBits, from: ring)
        let fingerprint = entry & ((1 &<< UInt64(fingerprintBits)) &- 1)
        let first = Int(truncatingIfNeeded: entry &>> UInt64(fingerprintBits))
        if let found = slot(of: fingerprint, in: first) {
            _ = exchange(0, slot: found, in: first)
        } else {
            let second = alternate(first, fingerprint)
            if let found = slot(of: fingerprint, in: second) { _ = exchange(0, slot: found, in: second) }
        }
        head &+= 1
        if head == capacity { head = 0 }
        retained &-= 1
        evictionCount &+= 1
    }

    // MARK: Reporting

    /// Ids retained: at most `capacity`.
    public var count: Int { retained }

    /// Bytes of the table, the FIFO ring and the kick log.
    public var footprint: Int { (table.count + ring.count + kickLog.count) * MemoryLayout<UInt64>.stride }

    /// Retained ids deleted as the oldest, to admit a newer one or to make room after a failed
    /// kick chain.
    public var evictions: Int { evictionCount }

    /// The load α = retained / slots.
    ///
    /// - Complexity: O(1).
    public var loadFactor: Double { Double(retained) / Double(bucketCount * Self.slotsPerBucket) }

    /// 1 − (1 − 2^−f)^(s·α): each of the s occupied slots a lookup compares against matches with
    /// chance 2^−f; s = 4·(2 − 1/buckets) slots are inspected on average (the two buckets
    /// coincide for one fingerprint in `bucketCount`).
    public var theoreticalFalsePositiveRate: Double {
        guard capacity > 0 else { return 0 }
        let inspected = Double(Self.slotsPerBucket) * (2 - 1 / Double(bucketCount))
        let perSlot = DeterministicMath.pow(2, -Double(fingerprintBits))
        return 1 - DeterministicMath.pow(1 - perSlot, inspected * loadFactor)
    }

    #if PUSHDEDUPE_INTERNAL_CHECKS
    package func _checkInvariants() {
        precondition(bucketCount > 0 && bucketCount & (bucketCount - 1) == 0, "bucket count is not a power of two")
        precondition(retained >= 0 && retained <= capacity && (capacity == 0 || head < capacity), "ring out of range")
        var stored = 0
        for index in 0..<bucketCount {
            let value = bucket(index)
            for slot in 0..<Self.slotsPerBucket where (value &>> UInt64(slot * fingerprintBits)) & ((1 << UInt64(fingerprintBits)) - 1) != 0 {
                stored += 1
            }
        }
        precondition(stored == retained, "table holds \(stored) fingerprints, ring \(retained)")
        for offset in 0..<retained {
            let entry = Self.load(at: (head + offset) % capacity, width: entryBits, from: ring)
            let fingerprint = entry & ((1 << UInt64(fingerprintBits)) - 1)
            let first = Int(truncatingIfNeeded: entry >> UInt64(fingerprintBits))
            precondition(
                slot(of: fingerprint, in: first) != nil || slot(of: fingerprint, in: alternate(first, fingerprint)) != nil,
                "a retained id's fingerprint is missing")
        }
    }
    #endif
}
