/// The published algorithm over 64-bit fingerprints and integer nanoseconds: remove the expired
/// entries, scan for the fingerprint, append.
///
/// It isolates what the data representation costs in ``PublishedLiteralWindow``: no string is built
/// or compared, and the array is reserved up front and compacted in place, so once it has held
/// its largest live set it never allocates again.
///
/// ```swift
/// var window = try ArrayScanWindow(configuration: .init(window: .milliseconds(500), capacity: 16))
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(0))    // true
/// window.admit(RouteFingerprint(route: "item:42"), at: .milliseconds(500))  // false: exactly the window
/// ```
///
/// - Guarantees: exact; never a false drop, never a missed duplicate. Unbounded: `capacity`
///   only reserves storage, and `evictions` is always 0.
/// - Memory: 16 bytes per slot of the array, which holds at least the largest live set seen.
/// - Complexity: O(*n*) per admit in the entries held (every call compacts and scans them).
public struct ArrayScanWindow: FingerprintWindow, _ClockedWindow, Sendable {
    public static let strategyID = "array-scan"
    public static let guarantee: Guarantee = .exact

    @usableFromInline var _entries: ContiguousArray<_WindowEntry>
    @usableFromInline var _clock: _WindowClock

    /// Builds the window; `capacity` reserves storage and bounds nothing.
    @usableFromInline
    init(clock: _WindowClock, capacity: Int) {
        _clock = clock
        _entries = []
        _entries.reserveCapacity(capacity)
    }

    /// - Complexity: O(*n*) in the entries held.
    @inlinable @inline(__always)
    mutating func _admit(_ key: UInt64, now: Int64, cutoff: Int64) -> Bool {
        _entries.removeAll { $0.seenAt < cutoff }
        if _entries.contains(where: { $0.fingerprint == key }) { return false }
        _entries.append(_WindowEntry(fingerprint: key, seenAt: now))
        return true
    }

    /// - Complexity: O(1).
    @inlinable public var count: Int { _entries.count }

    /// - Complexity: O(1).
    @inlinable public var footprint: Int { _entries.capacity * MemoryLayout<_WindowEntry>.stride }

    /// Always 0: the window is unbounded.
    ///
    /// - Complexity: O(1).
    @inlinable public var evictions: Int { 0 }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension ArrayScanWindow {
    /// Entries are in admission order, inside the window, and distinct.
    @usableFromInline
    func _checkInvariants() {
        var clock = _clock
        let cutoff = clock.advance(to: Timestamp(nanoseconds: clock.latest)).cutoff
        var previous = Int64.min
        for entry in _entries {
            precondition(entry.seenAt >= max(previous, cutoff), "entries out of order or expired")
            precondition(entry.seenAt <= _clock.latest, "entry newer than the clock")
            previous = entry.seenAt
        }
        let sorted = _entries.map(\.fingerprint).sorted()
        precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0 != $1 }, "fingerprint held twice")
    }
}
#endif
