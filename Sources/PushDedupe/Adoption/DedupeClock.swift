/// Where a deduplicator's event times come from: the continuous clock in an app, a
/// ``ManualClock`` in tests.
///
/// The strategies never read a clock; the deduplicators read this one once per event and pass
/// the `Timestamp` in. `ContinuousClock` keeps counting while the device sleeps, so a window
/// measures real elapsed time, as the article's `Date()` did, but it never steps backwards with
/// the wall clock.
public struct DedupeClock: Sendable {
    // Fixed layout on purpose: `ContinuousClock.Instant` is resilient, so a struct (or enum)
    // holding one is copied through runtime calls and makes its container's layout dynamic,
    // which cost more per event than the rest of the facade together. So the clock keeps its
    // origin as nanoseconds after one process-wide instant.
    /// The origin, in nanoseconds after `_processOrigin`.
    @usableFromInline let _originOffset: Int64
    @usableFromInline let _manual: ManualClock?

    init(originOffset: Int64, manual: ManualClock?) {
        _originOffset = originOffset
        _manual = manual
    }

    /// Nanoseconds of `ContinuousClock` since `origin` (by default, now).
    public static func continuous(origin: ContinuousClock.Instant = .now) -> DedupeClock {
        DedupeClock(originOffset: Timestamp(origin, since: _processOrigin).nanoseconds, manual: nil)
    }

    /// Whatever time `clock` is set to, for tests.
    public static func manual(_ clock: ManualClock) -> DedupeClock {
        DedupeClock(originOffset: 0, manual: clock)
    }

    /// Whether this is the continuous clock, which ``_continuousNow()`` reads.
    @inlinable
    var _isContinuous: Bool { _manual == nil }

    /// The current time.
    ///
    /// - Complexity: O(1): one `ContinuousClock.now`, or one lock of the manual clock.
    @inlinable
    public func now() -> Timestamp {
        if let manual = _manual { return manual.now }
        return _continuousNow()
    }

    /// The continuous clock's time, for a caller that has checked `_isContinuous`.
    @inlinable @inline(__always)
    func _continuousNow() -> Timestamp {
        let sinceProcessOrigin = Timestamp(ContinuousClock.now, since: _processOrigin).nanoseconds
        let (now, overflow) = sinceProcessOrigin.subtractingReportingOverflow(_originOffset)
        return Timestamp(nanoseconds: overflow ? (_originOffset < 0 ? .max : .min) : now)
    }

    /// The instant this clock counts from (for a manual clock, meaningless).
    var _continuousOrigin: ContinuousClock.Instant {
        _processOrigin.advanced(by: .nanoseconds(_originOffset))
    }
}

/// The instant every continuous `DedupeClock` measures from, taken on first use.
@usableFromInline
let _processOrigin = ContinuousClock.now
