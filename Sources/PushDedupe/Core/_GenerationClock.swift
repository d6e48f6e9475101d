/// When the two-generation consumed sets (`rotating-sets`, `aging-bloom`) rotate: generations of
/// `period` nanoseconds on a grid that starts at the first time given, with time clamped so it
/// never runs backwards.
///
/// `advance(to:)` says how many generations have ended; the set drops or shifts its own
/// generations accordingly. The start stays on the grid however far time jumps: the elapsed
/// time is taken as unsigned, which cannot wrap since `start <= latest`.
///
/// (`epoch-sets` cuts time into epochs aligned to multiples of its epoch length on the caller's
/// clock, not to its first admission, so it numbers epochs instead; see `EpochSetsWindow`.)
@usableFromInline
struct _GenerationClock: Sendable {
    /// The generation length in nanoseconds, at least 1.
    @usableFromInline let period: UInt64
    /// When the current generation began; 0 until `started`.
    @usableFromInline var start: Int64
    /// The latest time given; 0 until `started`.
    @usableFromInline var latest: Int64
    @usableFromInline var started: Bool

    /// A clock that starts at the first `advance`.
    @inlinable
    init(period: Int64) {
        precondition(period >= 1, "a generation lasts at least 1 ns")
        self.period = UInt64(period)
        start = 0
        latest = 0
        started = false
    }

    /// Clamps `now` to the latest time given and moves the clock to it, returning how many
    /// generations ended: 0, 1, or 2 for two or more (every generation then holds only what is
    /// older than a whole period).
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    mutating func advance(to now: Int64) -> Int {
        guard started else {
            started = true
            latest = now
            start = now
            return 0
        }
        guard now > latest else { return 0 }
        latest = now
        let elapsed = UInt64(bitPattern: now &- start)
        guard elapsed >= period else { return 0 }
        let ended = elapsed / period
        start &+= Int64(bitPattern: ended &* period)
        return ended == 1 ? 1 : 2
    }

    /// Whether a restored `start` and `latest` describe a started clock: the latest time lies
    /// inside the generation that begins at `start`.
    func admits(start: Int64, latest: Int64) -> Bool {
        latest >= start && UInt64(bitPattern: latest &- start) < period
    }
}
