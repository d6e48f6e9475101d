/// A power-of-two table where each slot holds the last fingerprint hashed to it and when it was
/// admitted: no probing, no expiry queue, one slot read per admit.
///
/// The slot is the top bits of the fingerprint's digest times 2⁶⁴/φ (Fibonacci hashing). A slot
/// suppresses only a repeat of the *full* 64-bit fingerprint it holds, and only within the
/// window. An admission whose slot holds a different fingerprint still inside the window
/// overwrites it and counts an eviction; if that fingerprint repeats, it is admitted again.
/// Expired slots are simply overwritten (not an eviction) or left in place (counted in `count`
/// until reused).
///
/// ```swift
/// var window = try DirectMappedWindow(configuration: .init(window: .milliseconds(500), capacity: 1_024))
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(0))    // true
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(10))   // false
/// ```
///
/// - Guarantees: never a false drop. A duplicate is missed only when another fingerprint mapped
///   to its slot was admitted in between while it was live, which is counted in `evictions`.
///   With *n* live fingerprints in *m* slots, a given one survives each other admission with
///   probability about 1 - 1/m. Capacity 0 remembers nothing and counts every admission as an
///   eviction.
/// - Memory: 24 bytes per slot; `capacity` rounded up to a power of two, allocated once.
/// - Complexity: O(1) per admit, worst case; no allocation after initialization.
public struct DirectMappedWindow: FingerprintWindow, _ClockedWindow, _CountedEntries, Sendable {
    public static let strategyID = "direct-mapped-window"
    public static let guarantee: Guarantee = .missesOnly

    /// `nil` for a slot never written: every `Int64` is a valid time, so no entry can mark it.
    @usableFromInline var _slots: ContiguousArray<_WindowEntry?>
    /// `64 - log₂(slot count)`; for a single slot, 64, which `&>>` reduces to 0 and `_mask`
    /// then zeroes.
    @usableFromInline let _shift: UInt64
    @usableFromInline let _mask: Int
    /// Occupied slots, including those whose entry has expired.
    @usableFromInline var _count: Int
    @usableFromInline var _evictions: Int
    @usableFromInline var _clock: _WindowClock

    /// Builds a table of `capacity` slots, rounded up to a power of two (none for a capacity of 0).
    @usableFromInline
    init(clock: _WindowClock, capacity: Int) {
        _clock = clock
        let slotCount = capacity == 0 ? 0 : _powerOfTwo(atLeast: capacity)
        _slots = ContiguousArray(repeating: nil, count: slotCount)
        _shift = UInt64(64 - max(1, slotCount).trailingZeroBitCount)
        _mask = max(0, slotCount - 1)
        _count = 0
        _evictions = 0
    }

    /// The number of slots.
    ///
    /// - Complexity: O(1).
    @inlinable public var capacity: Int { _slots.count }

    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func _admit(_ key: UInt64, now: Int64, cutoff: Int64) -> Bool {
        guard !_slots.isEmpty else {
            _evictions += 1
            return true
        }
        let position = _slot(for: key)
        if let slot = _slots[position] {
            let isLive = slot.seenAt >= cutoff
            if isLive && slot.fingerprint == key { return false }
            if isLive { _evictions += 1 }
        } else {
            _count += 1
        }
        _slots[position] = _WindowEntry(fingerprint: key, seenAt: now)
        return true
    }

    /// The slot for `key`: the top bits of its Fibonacci product.
    @inlinable @inline(__always)
    func _slot(for key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9e37_79b9_7f4a_7c15) &>> _shift) & _mask
    }

    /// - Complexity: O(1).
    @inlinable public var footprint: Int { _slots.count * MemoryLayout<_WindowEntry?>.stride }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension DirectMappedWindow {
    /// `count` matches the occupied slots and each slot holds a fingerprint that maps to it.
    /// Large tables get only the O(1) checks, so debug-build tests stay fast.
    @usableFromInline
    func _checkInvariants() {
        precondition(_count >= 0 && _count <= capacity, "count \(_count) outside 0...\(capacity)")
        guard capacity <= 256 else { return }
        var occupied = 0
        for case let (position, slot?) in _slots.enumerated() {
            occupied += 1
            precondition(_slot(for: slot.fingerprint) == position, "fingerprint stored outside its slot")
            precondition(slot.seenAt <= _clock.latest, "slot newer than the clock")
        }
        precondition(occupied == _count, "count \(_count) but \(occupied) occupied slots")
    }
}
#endif
