/// The time bookkeeping every window shares: clamps time that runs backwards and turns the
/// window length into a cutoff, so each admit does one guarded subtraction and then only
/// comparisons. Built by ``init(validating:for:)``, the one preamble of every window's initializer.
@usableFromInline
struct _WindowClock: Sendable {
    /// The window as configured, which the window reports back.
    @usableFromInline let duration: Duration
    /// The window length in whole nanoseconds, never negative.
    @usableFromInline let window: Int64
    /// The latest time given; `Int64.min` before the first admit.
    @usableFromInline var latest: Int64

    @inlinable
    init(duration: Duration) {
        self.duration = duration
        self.window = duration.wholeNanoseconds
        self.latest = .min
    }

    /// The clock for `configuration`, after checking its window and its capacity, so that the
    /// window may then use `configuration.capacity` as it is.
    ///
    /// - Throws: ``ConfigurationError`` naming `strategy` for a negative window, a negative
    ///   capacity, or a capacity above 2³⁰.
    init(validating configuration: WindowConfiguration, for strategy: String) throws(ConfigurationError) {
        if configuration.window < .zero {
            throw ConfigurationError(
                strategy: strategy, parameter: "window", reason: "must not be negative, got \(configuration.window)")
        }
        try _CapacityValidation.validated(configuration.capacity, strategy: strategy, bounded: .plain)
        self.init(duration: configuration.window)
    }

    /// Moves the clock to `time` (or keeps it, if `time` is earlier) and returns the clamped
    /// `now` with the oldest admission time still inside the window.
    ///
    /// An entry seen at `seenAt` is live exactly when `seenAt >= cutoff`, which is
    /// `now - seenAt <= window` without the subtraction that could overflow for far-apart
    /// timestamps. When `now - window` underflows, nothing can be older than the window, so the
    /// cutoff is `Int64.min`.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func advance(to time: Timestamp) -> (now: Int64, cutoff: Int64) {
        if time.nanoseconds > latest { latest = time.nanoseconds }
        let (cutoff, overflow) = latest.subtractingReportingOverflow(window)
        return (latest, overflow ? .min : cutoff)
    }
}
