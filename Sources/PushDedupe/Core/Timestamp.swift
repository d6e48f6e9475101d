/// A point on the caller's monotonic clock, in nanoseconds.
///
/// No strategy reads a clock: the caller passes the time of every event, so a run replays
/// identically from a seed or a trace. On iOS, pass e.g. `ContinuousClock.now` converted to
/// nanoseconds since an origin of your choice.
public struct Timestamp: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin shared by all events of one run.
    public var nanoseconds: Int64

    @inlinable
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// A timestamp `milliseconds` after the origin, rounded to the nearest nanosecond and
    /// saturating at the ends of `Int64` (NaN reads as the origin), so no input can trap.
    @inlinable
    public static func milliseconds(_ milliseconds: Double) -> Timestamp {
        let nanoseconds = (milliseconds * 1_000_000).rounded()
        // 2⁶³ is exactly representable; anything at or past it saturates.
        if nanoseconds >= 9_223_372_036_854_775_808.0 { return Timestamp(nanoseconds: .max) }
        if nanoseconds <= -9_223_372_036_854_775_808.0 { return Timestamp(nanoseconds: .min) }
        return Timestamp(nanoseconds: nanoseconds.isNaN ? 0 : Int64(nanoseconds))
    }

    @inlinable
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String {
        "\(Double(nanoseconds) / 1_000_000) ms"
    }
}

extension Duration {
    /// The duration in whole nanoseconds (truncated towards zero), saturating at `Int64.min`
    /// and `Int64.max`.
    ///
    /// The bounds are checked first: `components` itself traps on a duration of more than
    /// `Int64.max` seconds.
    @inlinable
    public var wholeNanoseconds: Int64 {
        if self >= .nanoseconds(Int64.max) { return .max }
        if self <= .nanoseconds(Int64.min) { return .min }
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
