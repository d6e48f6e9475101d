/// A hash index of the live fingerprints beside a FIFO queue of admissions: O(1) amortized per
/// admit at any live-set size.
///
/// The queue is a ring of `(fingerprint, time)` in admission order; since admission times never
/// decrease (time running backwards is clamped), the expired entries are always at its front,
/// and each admit pops them and deletes them from the index. The index is a `_SlotIndex` of
/// lanes naming queue slots, so each fingerprint is stored once, in the queue; what the index
/// names is exactly the live set, so the duplicate test is one lookup.
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
/// - Memory: 32 bytes per queue slot (a 16-byte entry and 16 bytes of index lanes: one 32-byte
///   group per two slots); the queue holds a power of two at least the largest live set.
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
    /// Live fingerprint → its slot in `_queue`.
    @usableFromInline var _index: _SlotIndex
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
        _index = _SlotIndex(slotCapacity: slots, slotsPerGroup: Self._slotsPerGroup)
        _head = 0
        _count = 0
    }

    /// Queue slots per 32-byte lane group: two keep most lookups in one group with few tag
    /// matches at any fill of the queue (four, 24 bytes per slot in all, cost more per admit at
    /// a full queue).
    @inlinable static var _slotsPerGroup: Int { 2 }

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
            _index.remove(slot: _head, hash: _SlotHash(digest: oldest.fingerprint))
            _head = (_head &+ 1) & mask
            _count &-= 1
        }
        let key = fingerprint.rawValue
        let hash = _SlotHash(digest: key)
        if _index.find(key, hash: hash, keys: _queue) >= 0 { return false }
        if _count == _queue.count { _grow() }
        let tail = (_head &+ _count) & (_queue.count &- 1)
        _queue[tail] = _WindowEntry(fingerprint: key, seenAt: now)
        _index.insert(slot: tail, hash: hash)
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
        precondition(slots <= _SlotIndex.maximumSlotCapacity, "more than 2³⁰ fingerprints live within one window")
        var queue = ContiguousArray<_WindowEntry>()
        queue.reserveCapacity(slots)
        var index = _SlotIndex(slotCapacity: slots, slotsPerGroup: Self._slotsPerGroup)
        for offset in 0..<_count {
            let entry = _queue[(_head + offset) & oldMask]
            index.insert(slot: offset, hash: _SlotHash(digest: entry.fingerprint))
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
    var _isSmall: Bool { _count <= 16 && _index.footprint <= 1_024 }

    /// The index names exactly the queued slots; the queue is in admission order and inside the
    /// window as of the last admit, which left at least the entry that suppressed or was
    /// admitted.
    @usableFromInline
    func _checkInvariants() {
        let mask = _queue.count - 1
        precondition(_queue.count.nonzeroBitCount == 1, "queue length \(_queue.count) not a power of two")
        precondition(_count >= 1 && _count <= _queue.count, "count \(_count) outside the queue")
        precondition(_index.slotCapacity == _queue.count, "index sized for \(_index.slotCapacity) slots, queue \(_queue.count)")
        var clock = _clock
        let cutoff = clock.advance(to: Timestamp(nanoseconds: clock.latest)).cutoff
        let newestSlot = (_head + _count - 1) & mask
        let newest = _queue[newestSlot]
        precondition(_queue[_head].seenAt >= cutoff, "an expired entry survived the admit")
        precondition(newest.seenAt <= _clock.latest, "the newest entry is later than the clock")
        precondition(
            _index.find(newest.fingerprint, hash: _SlotHash(digest: newest.fingerprint), keys: _queue) == newestSlot,
            "newest entry not indexed")
        guard _isSmall else { return }
        _index._checkInvariants(live: (0..<_count).map { (_head + $0) & mask }, keys: _queue)
        var previous = Int64.min
        for offset in 0..<_count {
            let entry = _queue[(_head + offset) & mask]
            precondition(entry.seenAt >= previous, "queue out of admission order")
            previous = entry.seenAt
        }
    }
}
#endif
