extension Timestamp {
    /// The origin of the caller's clock: 0 ns.
    public static let zero = Timestamp(nanoseconds: 0)

    /// `instant` as nanoseconds after `origin` on the continuous clock, saturating at the
    /// `Int64` limits (about ±292 years).
    ///
    /// ```swift
    /// let origin = ContinuousClock.now
    /// let now = Timestamp(ContinuousClock.now, since: origin)
    /// ```
    ///
    /// - Complexity: O(1).
    @inlinable
    public init(_ instant: ContinuousClock.Instant, since origin: ContinuousClock.Instant) {
        self.init(nanoseconds: origin.duration(to: instant).wholeNanoseconds)
    }

    /// The time since the origin as a `Duration`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var durationSinceOrigin: Duration {
        .nanoseconds(nanoseconds)
    }

    /// The continuous-clock instant this timestamp stands for, given the instant its origin was
    /// taken at.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func instant(since origin: ContinuousClock.Instant) -> ContinuousClock.Instant {
        origin.advanced(by: durationSinceOrigin)
    }

    /// `timestamp` moved by `duration`, saturating at `Int64.min` and `Int64.max` nanoseconds
    /// instead of trapping; a duration's sub-nanosecond part is truncated.
    ///
    /// The sum is taken in `Duration` (128-bit attoseconds), so it is exact before it saturates:
    /// `Timestamp(nanoseconds: .min) + .nanoseconds(Int64.max) + .nanoseconds(1)` is the origin.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func + (timestamp: Timestamp, duration: Duration) -> Timestamp {
        Timestamp(nanoseconds: (timestamp.durationSinceOrigin + duration).wholeNanoseconds)
    }

    /// `timestamp` moved back by `duration`, saturating like `+`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func - (timestamp: Timestamp, duration: Duration) -> Timestamp {
        Timestamp(nanoseconds: (timestamp.durationSinceOrigin - duration).wholeNanoseconds)
    }

    /// - Complexity: O(1).
    @inlinable
    public static func += (timestamp: inout Timestamp, duration: Duration) {
        timestamp = timestamp + duration
    }

    /// The duration from `earlier` to `later`, exact: a `Duration` holds any difference of two
    /// `Int64` nanosecond counts.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func - (later: Timestamp, earlier: Timestamp) -> Duration {
        .nanoseconds(later.nanoseconds) - .nanoseconds(earlier.nanoseconds)
    }
}
