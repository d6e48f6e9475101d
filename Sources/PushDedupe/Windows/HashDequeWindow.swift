/// A hash index of the live fingerprints beside a FIFO queue of admissions: O(1) amortized per
/// admit at any live-set size.
///
/// The queue is a ring of `(fingerprint, time)` in admission order; since admission times never
/// decrease (time running backwards is clamped), the expired entries are always at its front,
/// and each admit pops them and deletes them from the index. The index is an open-addressing
/// table keyed by the fingerprint's 64-bit digest, mapping it to its queue slot. What is left in
/// it is exactly the live set, so the duplicate test is one lookup.
///
/// Both structures start sized for `capacity` and double together when the live set outgrows
/// them, so once the live set stops growing no admit allocates.
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
/// - Memory: 80 bytes per queue slot (a 16-byte entry and four 16-byte index buckets); the
///   queue holds a power of two at least the largest live set. The index is kept at most a
///   quarter full: at half full, longer probe runs and backward shifts cost about 40% more per
///   admit at 8–64 live fingerprints, and a window's live set is small.
/// - Complexity: O(1) amortized per admit: each admission is pushed, indexed, popped and
///   unindexed once; a doubling costs O(*n*) and happens only when the live set sets a new peak.
public struct HashDequeWindow: FingerprintWindow, Sendable {
    public static let strategyID = "hash-deque"
    public static let guarantee: Guarantee = .exact

    /// The FIFO ring; its length is a power of two.
    @usableFromInline var _queue: ContiguousArray<_WindowEntry>
    /// The slot of the oldest entry.
    @usableFromInline var _head: Int
    @usableFromInline var _count: Int
    /// Live fingerprint → its slot in `_queue`; room for twice the queue, so at most a quarter
    /// full.
    @usableFromInline var _index: _FingerprintIndex
    @usableFromInline var _clock: _WindowClock

    public var window: Duration { _clock.duration }

    /// Builds the window with room for `configuration.capacity` live fingerprints before it
    /// first grows.
    ///
    /// - Throws: ``ConfigurationError`` for a negative window or capacity.
    public init(configuration: WindowConfiguration) throws(ConfigurationError) {
        let (clock, capacity) = try _WindowClock.validated(configuration, for: Self.strategyID)
        _clock = clock
        let slots = _powerOfTwo(atLeast: capacity)
        _queue = ContiguousArray(repeating: _WindowEntry(fingerprint: 0, seenAt: 0), count: slots)
        _index = _FingerprintIndex(minimumCapacity: 2 * slots)
        _head = 0
        _count = 0
    }

    /// - Complexity: O(1) amortized.
    @inlinable @inline(__always)
    public mutating func admit(_ fingerprint: RouteFingerprint, at time: Timestamp) -> Bool {
        #if PUSHDEDUPE_INTERNAL_CHECKS
        defer { _checkInvariants() }
        #endif
        let (now, cutoff) = _clock.advance(to: time)
        let mask = _queue.count &- 1
        while _count > 0 {
            let oldest = _queue[_head]
            if oldest.seenAt >= cutoff { break }
            _index.remove(oldest.fingerprint)
            _head = (_head &+ 1) & mask
            _count &-= 1
        }
        let key = fingerprint.rawValue
        if _count == _queue.count {
            // Full: grow only for a fingerprint that is really new.
            if _index.value(forKey: key) != nil { return false }
            _grow()
        }
        let tail = (_head &+ _count) & (_queue.count &- 1)
        guard _index.insertIfAbsent(key, value: Int32(truncatingIfNeeded: tail)) else { return false }
        _queue[tail] = _WindowEntry(fingerprint: key, seenAt: now)
        _count &+= 1
        return true
    }

    /// Doubles the queue, laying its entries out from slot 0, and rebuilds the index for the
    /// new slots.
    ///
    /// - Complexity: O(*n*).
    @inlinable @inline(never)
    mutating func _grow() {
        let oldMask = _queue.count - 1
        let slots = _queue.count * 2
        precondition(slots <= 1 << 31, "more than 2³¹ fingerprints live within one window")
        var queue = ContiguousArray<_WindowEntry>()
        queue.reserveCapacity(slots)
        var index = _FingerprintIndex(minimumCapacity: 2 * slots)
        for offset in 0..<_count {
            let entry = _queue[(_head + offset) & oldMask]
            index.insertNew(entry.fingerprint, value: Int32(truncatingIfNeeded: offset))
            queue.append(entry)
        }
        queue.append(contentsOf: repeatElement(_WindowEntry(fingerprint: 0, seenAt: 0), count: slots - _count))
        _queue = queue
        _index = index
        _head = 0
    }

    /// - Complexity: O(1).
    @inlinable public var count: Int { _count }

    /// The queue and the index.
    ///
    /// - Complexity: O(1).
    @inlinable public var footprint: Int { _queue.count * MemoryLayout<_WindowEntry>.stride + _index.footprint }

    /// Always 0: the window is unbounded.
    ///
    /// - Complexity: O(1).
    @inlinable public var evictions: Int { 0 }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension HashDequeWindow {
    /// Only small states get the exhaustive O(table) checks, so debug-build tests with large
    /// live sets or tables stay fast; every state the conformance suite explores is small.
    var _isSmall: Bool { _count <= 16 && _index.bucketCount <= 256 }

    /// The index holds exactly the queued fingerprints, each pointing at its own slot; the queue
    /// is in admission order and inside the window as of the last admit, which left at least the
    /// entry that suppressed or was admitted.
    @usableFromInline
    func _checkInvariants() {
        let mask = _queue.count - 1
        precondition(_queue.count.nonzeroBitCount == 1, "queue length \(_queue.count) not a power of two")
        precondition(_count >= 1 && _count <= _queue.count, "count \(_count) outside the queue")
        precondition(_index.count == _count, "index holds \(_index.count) keys for \(_count) entries")
        precondition(_index.capacity >= _queue.count, "index too small for the queue")
        var clock = _clock
        let cutoff = clock.advance(to: Timestamp(nanoseconds: clock.latest)).cutoff
        let newest = _queue[(_head + _count - 1) & mask]
        precondition(_queue[_head].seenAt >= cutoff, "an expired entry survived the admit")
        precondition(newest.seenAt <= _clock.latest, "the newest entry is later than the clock")
        precondition(
            _index.value(forKey: newest.fingerprint) == Int32((_head + _count - 1) & mask), "newest entry not indexed")
        guard _isSmall else { return }
        _index._checkInvariants()
        var previous = Int64.min
        for offset in 0..<_count {
            let slot = (_head + offset) & mask
            let entry = _queue[slot]
            precondition(entry.seenAt >= previous, "queue out of admission order")
            precondition(_index.value(forKey: entry.fingerprint) == Int32(slot), "entry at \(slot) not indexed to it")
            previous = entry.seenAt
        }
    }
}
#endif
