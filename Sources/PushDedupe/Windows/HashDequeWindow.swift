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
/// - Memory: 24 bytes per queue slot (a 16-byte entry and 8 bytes of lanes: one 32-byte group
///   per four slots); the queue holds a power of two at least the largest live set.
/// - Complexity: O(1) amortized per admit: each admission is pushed, indexed and popped once; a
///   doubling costs O(*n*) and happens only when the live set sets a new peak.
public struct HashDequeWindow: FingerprintWindow, Sendable {
    public static let strategyID = "hash-deque"
    public static let guarantee: Guarantee = .exact

    /// The FIFO ring; its length is a power of two.
    @usableFromInline var _queue: ContiguousArray<_WindowEntry>
    /// The slot of the oldest entry.
    @usableFromInline var _head: Int
    @usableFromInline var _count: Int
    /// The index: lanes sized by `_ring` for as many keys as `_queue` has slots.
    @usableFromInline var _lanes: [UInt32]
    @usableFromInline var _ring: _AgeRing
    /// Admissions since the last doubling, modulo 2³²; its low bits are the next sequence number.
    @usableFromInline var _accepted: UInt32
    /// The lane the cursor restamps next.
    @usableFromInline var _sweepLane: Int
    @usableFromInline var _clock: _WindowClock

    public var window: Duration { _clock.duration }

    /// Builds the window with room for `configuration.capacity` live fingerprints before it
    /// first grows.
    ///
    /// - Throws: ``ConfigurationError`` for a negative window or capacity.
    public init(configuration: WindowConfiguration) throws(ConfigurationError) {
        _clock = try _WindowClock(validating: configuration, for: Self.strategyID)
        let capacity = configuration.capacity
        let slots = _powerOfTwo(atLeast: capacity)
        _queue = ContiguousArray(repeating: _WindowEntry(fingerprint: 0, seenAt: 0), count: slots)
        _ring = _AgeRing(capacity: slots)
        _lanes = Array(repeating: _ring.vacantStamp(sequence: 0), count: _ring.laneMask + 1)
        _accepted = 0
        _sweepLane = 0
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
        // Popping is all expiry takes: a lane reads as live only among the `_count` newest.
        while _count > 0 && _queue[_head].seenAt < cutoff {
            _head = (_head &+ 1) & mask
            _count &-= 1
        }
        let key = fingerprint.rawValue
        let hash = _SlotHash(digest: key)
        let ring = _ring
        let count = _count
        let tail = (_head &+ count) & mask
        let sequence = _accepted & ring.sequenceMask
        let found = _lanes.withUnsafeBufferPointer { lanes in
            _queue.withUnsafeBufferPointer { queue in
                ring.find(key, hash: hash, sequence: sequence, count: count, next: tail, lanes: lanes, keys: queue)
            }
        }
        if found >= 0 { return false }
        if count == _queue.count { return _admitGrowing(key, hash: hash, at: now) }
        let sweep = _sweepLane
        _lanes.withUnsafeMutableBufferPointer { lanes in
            ring.insert(hash: hash, sequence: sequence, retained: count, next: tail, sweep: sweep, lanes: lanes)
        }
        _queue[tail] = _WindowEntry(fingerprint: key, seenAt: now)
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
        let oldMask = _queue.count - 1
        let slots = _queue.count * 2
        precondition(slots <= _CapacityValidation.maximum, "more than 2³⁰ fingerprints live within one window")
        let ring = _AgeRing(capacity: slots)
        var queue = ContiguousArray<_WindowEntry>()
        queue.reserveCapacity(slots)
        var lanes = [UInt32](repeating: ring.vacantStamp(sequence: 0), count: ring.laneMask + 1)
        var sweep = 0
        lanes.withUnsafeMutableBufferPointer { lanes in
            for offset in 0...(_count) {
                let entry = offset < _count ? _queue[(_head + offset) & oldMask] : _WindowEntry(fingerprint: key, seenAt: now)
                let entryHash = offset < _count ? _SlotHash(digest: entry.fingerprint) : hash
                ring.insert(
                    hash: entryHash, sequence: UInt32(truncatingIfNeeded: offset) & ring.sequenceMask, retained: offset,
                    next: offset, sweep: sweep, lanes: lanes)
                sweep = (sweep + ring.sweptLanesPerAccept) & ring.laneMask
                queue.append(entry)
            }
        }
        _count += 1
        queue.append(contentsOf: repeatElement(_WindowEntry(fingerprint: 0, seenAt: 0), count: slots - _count))
        _queue = queue
        _lanes = lanes
        _ring = ring
        _head = 0
        _accepted = UInt32(truncatingIfNeeded: _count)
        _sweepLane = sweep
        return true
    }

    /// - Complexity: O(1).
    @inlinable public var count: Int { _count }

    /// The queue and the index.
    ///
    /// - Complexity: O(1).
    @inlinable public var footprint: Int {
        _queue.count * MemoryLayout<_WindowEntry>.stride + _lanes.count * MemoryLayout<UInt32>.stride
    }

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
        let mask = _queue.count - 1
        precondition(_queue.count.nonzeroBitCount == 1, "queue length \(_queue.count) not a power of two")
        precondition(_count >= 1 && _count <= _queue.count, "count \(_count) outside the queue")
        precondition(_ring.capacity == _queue.count, "index sized for \(_ring.capacity) slots, queue \(_queue.count)")
        var clock = _clock
        let cutoff = clock.advance(to: Timestamp(nanoseconds: clock.latest)).cutoff
        precondition(_queue[_head].seenAt >= cutoff, "an expired entry survived the admit")
        precondition(_queue[(_head + _count - 1) & mask].seenAt <= _clock.latest, "the newest entry is later than the clock")
        let tail = (_head + _count) & mask
        let sequence = _accepted & _ring.sequenceMask
        var previous = Int64.min
        for offset in (_count <= 16 ? 0 : _count - 1)..<_count {
            let slot = (_head + offset) & mask
            let entry = _queue[slot]
            precondition(entry.seenAt >= previous, "queue out of admission order")
            previous = entry.seenAt
            let found = _lanes.withUnsafeBufferPointer { lanes in
                _ring.find(
                    entry.fingerprint, hash: _SlotHash(digest: entry.fingerprint), sequence: sequence, count: _count,
                    next: tail, lanes: lanes, keys: _queue)
            }
            precondition(found == slot, "entry at \(slot) indexed to \(found)")
        }
    }
}
#endif
