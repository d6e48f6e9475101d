/// A FIFO queue of admissions indexed by fingerprint: O(1) amortized per admit at any live-set
/// size.
///
/// The queue is a ring of `(fingerprint, time)` in admission order; since admission times never
/// decrease (time running backwards is clamped), the expired entries are always at its front,
/// and each admit pops them. The index is an `_AgeRing`, the lane table `fifo-set` uses: a lane
/// holds a tag and the admission's sequence number, which says how many admissions ago it came
/// and therefore where it sits in the queue and whether it is among the `count` live ones. So
/// popping an expired entry needs no index work at all, each fingerprint is stored once (in the
/// queue), and the duplicate test is one lookup in one lane group in the common case.
///
/// Both structures share one allocation (`_RingStorage`, as in `fifo-set`), so an admission
/// checks uniqueness once and a repeat not at all. They start sized for `capacity` and double
/// together when the live set outgrows them, so once the live set stops growing no admit
/// allocates.
///
/// ```swift
/// var window = try HashDequeWindow(configuration: .init(window: .milliseconds(500), capacity: 64))
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(0))    // true
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(400))  // false
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(501))  // true
/// ```
///
/// - Guarantees: exact; never a false drop, never a missed duplicate. Unbounded, and
///   `evictions` is always 0.
/// - Memory: 24 bytes per queue slot (a 16-byte entry and 8 bytes of lanes: one 32-byte group
///   per four slots); the queue holds a power of two at least the largest live set.
/// - Complexity: O(1) amortized per admit: each admission is pushed, indexed and popped once; a
///   doubling costs O(*n*) and happens only when the live set sets a new peak.
///
/// `@unchecked Sendable` for the reason `FIFOSet` gives: its storage is a class holding raw
/// pointers, written only through `_RingStorage.withUniqueBuffers`, which copies it when shared.
public struct HashDequeWindow: FingerprintWindow, _ClockedWindow, @unchecked Sendable {
    public static let strategyID = "hash-deque"
    public static let guarantee: Guarantee = .exact

    /// The FIFO ring (a power of two of entries) and the index (lanes sized by `_ring` for as many
    /// keys as the ring has slots), in one allocation copied on write.
    @usableFromInline var _storage: _RingStorage
    /// The slot of the oldest entry.
    @usableFromInline var _head: Int
    @usableFromInline var _count: Int
    @usableFromInline var _ring: _AgeRing
    /// Admissions since the last doubling, modulo 2³²; its low bits are the next sequence number.
    @usableFromInline var _accepted: UInt32
    /// The lane the cursor restamps next.
    @usableFromInline var _sweepLane: Int
    @usableFromInline var _clock: _WindowClock

    /// Builds the window with room for `capacity` live fingerprints before it first grows.
    @usableFromInline
    init(clock: _WindowClock, capacity: Int) {
        _clock = clock
        _ring = _AgeRing(capacity: _powerOfTwo(atLeast: capacity))
        _storage = Self._emptyStorage(_ring)
        _accepted = 0
        _sweepLane = 0
        _head = 0
        _count = 0
    }

    /// A vacant ring and lanes sized by `ring`.
    @usableFromInline
    static func _emptyStorage(_ ring: _AgeRing) -> _RingStorage {
        _RingStorage(
            capacity: ring.capacity, laneCount: ring.laneMask + 1, element: _WindowEntry(fingerprint: 0, seenAt: 0),
            vacantLane: ring.vacantStamp(sequence: 0))
    }

    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    mutating func _admit(_ key: UInt64, now: Int64, cutoff: Int64) -> Bool {
        let ring = _ring
        let mask = ring.capacity &- 1
        let hash = _SlotHash(digest: key)
        let sequence = _accepted & ring.sequenceMask
        var head = _head
        var count = _count
        // Popping and the lookup only read the storage, so a repeat never pays its uniqueness
        // check. Popping is all expiry takes: a lane reads as live only among the `count` newest.
        let found = _storage.withBuffers(of: _WindowEntry.self) { lanes, queue in
            while count > 0 && queue[head].seenAt < cutoff {
                head = (head &+ 1) & mask
                count &-= 1
            }
            return ring.find(
                key, hash: hash, sequence: sequence, count: count, next: (head &+ count) & mask, lanes: lanes, keys: queue)
        }
        _head = head
        _count = count
        if found >= 0 { return false }
        if count == ring.capacity { return _admitGrowing(key, hash: hash, at: now) }
        let tail = (head &+ count) & mask
        let sweep = _sweepLane
        _RingStorage.withUniqueBuffers(&_storage, of: _WindowEntry.self) { lanes, queue in
            ring.insert(hash: hash, sequence: sequence, retained: count, next: tail, sweep: sweep, lanes: lanes)
            queue[tail] = _WindowEntry(fingerprint: key, seenAt: now)
        }
        _sweepLane = (sweep &+ ring.sweptLanesPerAccept) & ring.laneMask
        _accepted &+= 1
        _count = count &+ 1
        return true
    }

    /// Doubles the queue, laying its entries out from slot 0 and re-indexing them in admission
    /// order, then admits `key`, which is new.
    ///
    /// - Complexity: O(*n*).
    @inlinable @inline(never)
    mutating func _admitGrowing(_ key: UInt64, hash: _SlotHash, at now: Int64) -> Bool {
        let oldMask = _ring.capacity - 1
        let slots = _ring.capacity * 2
        precondition(slots <= _CapacityValidation.maximum, "more than 2³⁰ fingerprints live within one window")
        let ring = _AgeRing(capacity: slots)
        var grown = Self._emptyStorage(ring)
        var sweep = 0
        let count = _count
        let head = _head
        _storage.withBuffers(of: _WindowEntry.self) { _, old in
            _RingStorage.withUniqueBuffers(&grown, of: _WindowEntry.self) { lanes, queue in
                for offset in 0...count {
                    let entry = offset < count ? old[(head + offset) & oldMask] : _WindowEntry(fingerprint: key, seenAt: now)
                    let entryHash = offset < count ? _SlotHash(digest: entry.fingerprint) : hash
                    ring.insert(
                        hash: entryHash, sequence: UInt32(truncatingIfNeeded: offset) & ring.sequenceMask, retained: offset,
                        next: offset, sweep: sweep, lanes: lanes)
                    sweep = (sweep + ring.sweptLanesPerAccept) & ring.laneMask
                    queue[offset] = entry
                }
            }
        }
        _storage = grown
        _ring = ring
        _head = 0
        _count = count + 1
        _accepted = UInt32(truncatingIfNeeded: _count)
        _sweepLane = sweep
        return true
    }

    /// - Complexity: O(1).
    @inlinable public var count: Int { _count }

    /// The queue and the index.
    ///
    /// - Complexity: O(1).
    @inlinable public var footprint: Int { _storage.byteCount }

    /// Always 0: the window is unbounded.
    ///
    /// - Complexity: O(1).
    @inlinable public var evictions: Int { 0 }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension HashDequeWindow {
    /// The queue is in admission order and inside the window as of the last admit, which left
    /// at least the entry that suppressed or was admitted; the index finds every live entry at
    /// its own slot (all of them in small states, the newest otherwise, so that debug-build
    /// tests with large live sets stay fast).
    @usableFromInline
    func _checkInvariants() {
        let capacity = _storage.capacity
        let mask = capacity - 1
        precondition(capacity.nonzeroBitCount == 1, "queue length \(capacity) not a power of two")
        precondition(_count >= 1 && _count <= capacity, "count \(_count) outside the queue")
        precondition(_ring.capacity == capacity, "index sized for \(_ring.capacity) slots, queue \(capacity)")
        precondition(_storage.laneCount == _ring.laneMask + 1, "\(_storage.laneCount) lanes, index needs \(_ring.laneMask + 1)")
        var clock = _clock
        let cutoff = clock.advance(to: Timestamp(nanoseconds: clock.latest)).cutoff
        let tail = (_head + _count) & mask
        let sequence = _accepted & _ring.sequenceMask
        _storage.withBuffers(of: _WindowEntry.self) { lanes, queue in
            precondition(queue[_head].seenAt >= cutoff, "an expired entry survived the admit")
            precondition(queue[(_head + _count - 1) & mask].seenAt <= _clock.latest, "the newest entry is later than the clock")
            var previous = Int64.min
            for offset in (_count <= 16 ? 0 : _count - 1)..<_count {
                let slot = (_head + offset) & mask
                let entry = queue[slot]
                precondition(entry.seenAt >= previous, "queue out of admission order")
                previous = entry.seenAt
                let found = _ring.find(
                    entry.fingerprint, hash: _SlotHash(digest: entry.fingerprint), sequence: sequence, count: _count,
                    next: tail, lanes: lanes, keys: queue)
                precondition(found == slot, "entry at \(slot) indexed to \(found)")
            }
        }
    }
}
#endif
