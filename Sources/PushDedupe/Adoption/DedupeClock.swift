/// Where a deduplicator's event times come from: the continuous clock in an app, a
/// ``ManualClock`` in tests.
///
/// The strategies never read a clock; the deduplicators read this one once per event and pass
/// the `Timestamp` in. `ContinuousClock` keeps counting while the device sleeps, so a window
/// measures real elapsed time, as the article's `Date()` did, but it never steps backwards with
/// the wall clock.
public struct DedupeClock: Sendable {
    @usableFromInline
    enum _Source: Sendable {
        case continuous(origin: ContinuousClock.Instant)
        case manual(ManualClock)
    }

    @usableFromInline let _source: _Source

    init(_ source: _Source) {
        _source = source
    }

    /// Nanoseconds of `ContinuousClock` since `origin` (by default, now).
    public static func continuous(origin: ContinuousClock.Instant = .now) -> DedupeClock {
        DedupeClock(.continuous(origin: origin))
    }

    /// Whatever time `clock` is set to, for tests.
    public static func manual(_ clock: ManualClock) -> DedupeClock {
        DedupeClock(.manual(clock))
    }

    /// The current time.
    ///
    /// - Complexity: O(1): one `ContinuousClock.now`, or one lock of the manual clock.
    @inlinable
    public func now() -> Timestamp {
        switch _source {
        case .continuous(let origin): Timestamp(ContinuousClock.now, since: origin)
        case .manual(let clock): clock.now
        }
    }
}
