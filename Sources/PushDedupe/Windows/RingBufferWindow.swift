/// A fixed-capacity ring of the fingerprints admitted within the window, oldest first.
///
/// Admission times never decrease (time running backwards is clamped), so the expired entries
/// are always a prefix of the ring: expiry only advances the head. A lookup scans the live
/// entries, which sit in at most two contiguous runs of a fingerprint-only array. When a new
/// fingerprint arrives with the ring full, it overwrites the oldest live entry and counts an
/// eviction.
///
/// ```swift
/// var window = try RingBufferWindow(configuration: .init(window: .milliseconds(500), capacity: 2))
/// window.admit(RouteFingerprint(route: "item:1"), at: .milliseconds(0))   // true
/// window.admit(RouteFingerprint(route: "item:2"), at: .milliseconds(1))   // true
/// window.admit(RouteFingerprint(route: "item:3"), at: .milliseconds(2))   // true, evicts item:1
/// window.admit(RouteFingerprint(route: "item:1"), at: .milliseconds(3))   // true: a missed duplicate
/// ```
///
/// - Guarantees: never a false drop. A duplicate is missed only when `capacity` or more other
///   fingerprints were admitted within the window after it, each such loss counted in
///   `evictions`. Capacity 0 remembers nothing and counts every admission as an eviction.
/// - Memory: 16 bytes per slot, `capacity` slots, allocated once at initialization.
/// - Complexity: O(*n*) per admit in the live entries (at most `capacity`), plus O(1)
///   amortized expiry; no allocation after initialization.
public struct RingBufferWindow: FingerprintWindow, _ClockedWindow, _CountedEntries, Sendable {
    public static let strategyID = "ring-buffer"
    public static let guarantee: Guarantee = .exactForgetsOldest

    /// Fingerprint digests by slot, apart from the times so a scan reads only these.
    @usableFromInline var _fingerprints: ContiguousArray<UInt64>
    /// Admission times by slot.
    @usableFromInline var _seenAt: ContiguousArray<Int64>
    /// The slot of the oldest entry.
    @usableFromInline var _head: Int
    @usableFromInline var _count: Int
    @usableFromInline var _evictions: Int
    @usableFromInline var _clock: _WindowClock

    /// Builds a ring of `capacity` slots.
    @usableFromInline
    init(clock: _WindowClock, capacity: Int) {
        _clock = clock
        _fingerprints = ContiguousArray(repeating: 0, count: capacity)
        _seenAt = ContiguousArray(repeating: 0, count: capacity)
        _head = 0
        _count = 0
        _evictions = 0
    }

    /// The most entries the ring holds.
    ///
    /// - Complexity: O(1).
    @inlinable public var capacity: Int { _fingerprints.count }

    /// - Complexity: O(*n*) in the live entries, at most `capacity`.
    @inlinable @inline(__always)
    mutating func _admit(_ key: UInt64, now: Int64, cutoff: Int64) -> Bool {
        let capacity = self.capacity
        while _count > 0 && _seenAt[_head] < cutoff {
            _head = _head + 1 == capacity ? 0 : _head + 1
            _count -= 1
        }
        if _contains(key) { return false }
        guard capacity > 0 else {
            _evictions += 1
            return true
        }
        var tail = _head + _count
        if tail >= capacity { tail -= capacity }
        _fingerprints[tail] = key
        _seenAt[tail] = now
        if _count == capacity {
            // The tail has wrapped onto the head: the oldest live entry was just overwritten.
            _head = _head + 1 == capacity ? 0 : _head + 1
            _evictions += 1
        } else {
            _count += 1
        }
        return true
    }

    /// Whether `key` is among the `_count` entries from the head, scanning the one or two
    /// contiguous runs they occupy.
    @inlinable
    func _contains(_ key: UInt64) -> Bool {
        let head = _head
        let count = _count
        return _fingerprints.withUnsafeBufferPointer { fingerprints in
            let firstEnd = min(head + count, fingerprints.count)
            for slot in head..<firstEnd where fingerprints[slot] == key { return true }
            for slot in 0..<(count - (firstEnd - head)) where fingerprints[slot] == key { return true }
            return false
        }
    }

    /// - Complexity: O(1).
    @inlinable public var footprint: Int { capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<Int64>.stride) }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension RingBufferWindow {
    /// The live entries are within capacity, in admission order, inside the window as of the
    /// last admit, and distinct.
    @usableFromInline
    func _checkInvariants() {
        precondition(_count >= 0 && _count <= capacity, "count \(_count) outside 0...\(capacity)")
        precondition(capacity == 0 || (0..<capacity).contains(_head), "head \(_head) outside the ring")
        var clock = _clock
        let cutoff = clock.advance(to: Timestamp(nanoseconds: clock.latest)).cutoff
        var previous = Int64.min
        var fingerprints: [UInt64] = []
        for offset in 0..<_count {
            let slot = (_head + offset) % capacity
            precondition(_seenAt[slot] >= max(previous, cutoff), "entries out of order or expired")
            precondition(_seenAt[slot] <= _clock.latest, "entry newer than the clock")
            previous = _seenAt[slot]
            fingerprints.append(_fingerprints[slot])
        }
        fingerprints.sort()
        precondition(zip(fingerprints, fingerprints.dropFirst()).allSatisfy { $0 != $1 }, "fingerprint held twice")
    }
}
#endif
