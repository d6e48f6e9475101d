/// Two hash sets of fingerprints, the current and the previous generation, rotated every half
/// window: a fingerprint is suppressed while it is in either.
///
/// Time is cut into epochs of `h = ⌈window / 2⌉` nanoseconds, aligned to multiples of `h` on the
/// caller's clock. Admissions go into the current set. When an admit arrives in the next epoch,
/// the current set becomes the previous one and the old previous set is emptied; when it arrives
/// two or more epochs later, both are emptied. There is no per-entry time and no expiry queue:
/// forgetting is whole generations at once.
///
/// **Boundary slack.** An admission at `t₀` is remembered until the end of the epoch after its
/// own, so a repeat at age `a = now - t₀` is suppressed exactly when `a < H`, where
/// `H = (⌊t₀ / h⌋ + 2)·h - t₀` lies in `(h, 2h]` depending on where in its epoch `t₀` fell:
/// - every repeat at age `a ≤ h` (about half the window) is suppressed;
/// - no repeat at age `a ≥ 2h` is suppressed. As `2h` is `window` or `window + 1`, nothing beyond
///   the window is ever suppressed, but for an even `window` (every millisecond window) a repeat
///   at exactly `window` is admitted, where the exact windows would still suppress it;
/// - in between, a repeat is suppressed or admitted depending on the phase of `t₀`.
///
/// So the slack is all on the admitting side: up to half a window of missed duplicates, never a
/// false drop. A window of 0 uses epochs of 1 ns and keeps no previous generation, which
/// suppresses exactly the repeats at the same instant, like the exact windows.
///
/// - Guarantees: never a false drop (nothing older than `window` is suppressed). Misses a
///   duplicate only at an age above `⌈window / 2⌉`. `evictions` is always 0: generations age
///   out, they are never dropped to make room.
/// - Memory: per generation, an 8-byte log of its fingerprints, sized to the most admissions
///   one epoch has seen (at least `capacity`), and a `_SlotIndex` over the log (8 bytes of lanes
///   per logged slot): 32 bytes per fingerprint of the busiest epoch, proportional to the traffic
///   of the last one to two half windows, never to the session's length.
/// - Complexity: O(1) expected per admit (a lookup in the previous generation, a lookup and an
///   insertion in the current one), plus, at each rotation (at most once per admit and once per
///   half window), emptying a generation in O(min(its admissions, table size)): a sparse
///   generation removes its logged fingerprints one by one instead of wiping a table sized for
///   an earlier burst. A generation doubles, in O(*n*), only when an epoch sets a new peak.
public struct EpochSetsWindow: FingerprintWindow, _ClockedWindow, Sendable {
    public static let strategyID = "epoch-sets"
    public static let guarantee: Guarantee = .exactForgetsAfterRetention(fraction: 0.5)

    /// Admissions of the current epoch, and of the epoch before it.
    @usableFromInline var _current: _IndexedKeys<UInt64>
    @usableFromInline var _previous: _IndexedKeys<UInt64>
    /// `h`, the epoch length in nanoseconds, at least 1.
    @usableFromInline let _epochLength: Int64
    /// Whether the previous generation is kept: not for a window of 0.
    @usableFromInline let _keepsPrevious: Bool
    /// The current epoch's number, `⌊now / h⌋`.
    @usableFromInline var _epoch: Int64
    /// The first nanosecond of the next epoch (saturated at `Int64.max`).
    @usableFromInline var _nextRotation: Int64
    @usableFromInline var _clock: _WindowClock

    /// Builds the window; each generation starts with room for `capacity` fingerprints and
    /// doubles as needed.
    @usableFromInline
    init(clock: _WindowClock, capacity: Int) {
        _clock = clock
        _epochLength = _clock.window == 0 ? 1 : _clock.window / 2 + _clock.window % 2
        _keepsPrevious = _clock.window > 0
        _current = _IndexedKeys(reservation: capacity)
        _previous = _IndexedKeys(reservation: capacity)
        _epoch = .min
        _nextRotation = .min
    }

    /// Repeats at most this long after an admission are always suppressed: `⌈window / 2⌉`, or 0
    /// for a window of 0.
    ///
    /// - Complexity: O(1).
    public var alwaysSuppressedAge: Duration { .nanoseconds(_keepsPrevious ? _epochLength : 0) }

    /// Repeats at least this long after an admission are never suppressed: `2·⌈window / 2⌉`, or
    /// 1 ns for a window of 0. Never more than `window + 1 ns`.
    ///
    /// - Complexity: O(1).
    public var neverSuppressedAge: Duration { .nanoseconds(_keepsPrevious ? 2 * _epochLength : 1) }

    /// - Complexity: O(1) expected; a rotation adds O(table size).
    @inlinable @inline(__always)
    mutating func _admit(_ key: UInt64, now: Int64, cutoff: Int64) -> Bool {
        if now >= _nextRotation { _rotate(to: now) }
        let hash = _SlotHash(digest: key)
        if _previous.count > 0 && _previous.contains(key, hash: hash) { return false }
        if _current.contains(key, hash: hash) { return false }
        _current.append(key, hash: hash)
        return true
    }

    /// Moves to the epoch containing `now`, ageing out one or both generations.
    ///
    /// - Complexity: O(table size).
    @inlinable @inline(never)
    mutating func _rotate(to now: Int64) {
        let quotient = now / _epochLength
        let epoch = now % _epochLength < 0 ? quotient - 1 : quotient
        if epoch == _epoch { return }
        if _keepsPrevious && epoch == _epoch &+ 1 {
            swap(&_current, &_previous)
            _current.removeAll()
        } else {
            _current.removeAll()
            _previous.removeAll()
        }
        _epoch = epoch
        let (start, overflow) = (epoch &+ 1).multipliedReportingOverflow(by: _epochLength)
        _nextRotation = overflow || epoch == .max ? .max : start
    }

    /// Both generations, including the previous one's entries that may already be outside the
    /// window.
    ///
    /// - Complexity: O(1).
    @inlinable public var count: Int { _current.count + _previous.count }

    /// Both key logs and their indexes.
    ///
    /// - Complexity: O(1).
    @inlinable public var footprint: Int { _current.footprint + _previous.footprint }

    /// Always 0: generations age out, nothing is dropped to make room.
    ///
    /// - Complexity: O(1).
    @inlinable public var evictions: Int { 0 }
}

#if PUSHDEDUPE_INTERNAL_CHECKS
extension EpochSetsWindow {
    /// The clock is inside the current epoch and the two generations are disjoint tables.
    @usableFromInline
    func _checkInvariants() {
        let (start, overflow) = _epoch.multipliedReportingOverflow(by: _epochLength)
        precondition(overflow || start <= _clock.latest, "clock before the current epoch")
        precondition(_clock.latest < _nextRotation || _nextRotation == .max, "clock past the current epoch")
        precondition(_keepsPrevious || _previous.count == 0, "window 0 kept a previous generation")
        // Only small states get the exhaustive checks, as in `HashDequeWindow`.
        guard count <= 16 && _current._index.slotCapacity + _previous._index.slotCapacity <= 256 else { return }
        for generation in [_current, _previous] {
            generation._index._checkInvariants(live: 0..<generation.count, keys: generation._keys)
        }
        for key in _current._keys {
            precondition(!_previous.contains(key, hash: _SlotHash(digest: key)), "fingerprint in both generations")
        }
    }
}
#endif
