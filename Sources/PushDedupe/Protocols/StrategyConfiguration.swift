/// Parameters every fingerprint window is built from.
///
/// A strategy reads the fields it needs and ignores the rest, so the harness can build any
/// window from one value. Validation happens in the strategy's initializer.
public struct WindowConfiguration: Hashable, Sendable {
    /// How long a recorded fingerprint suppresses repeats. Must not be negative.
    public var window: Duration
    /// The most live fingerprints a bounded window keeps (ring size, table size). Exact,
    /// growable windows treat it as an initial reservation. Must not be negative.
    public var capacity: Int

    public init(window: Duration = .milliseconds(500), capacity: Int = 64) {
        self.window = window
        self.capacity = capacity
    }
}

/// Parameters every consumed set is built from.
///
/// A strategy reads the fields it needs and ignores the rest.
public struct ConsumedSetConfiguration: Hashable, Sendable {
    /// Bounded sets: the most ids retained. Filters: the expected number of ids. Must not be
    /// negative.
    public var capacity: Int
    /// Filters: the target false-positive rate, in the open interval (0, 1).
    public var falsePositiveRate: Double
    /// Time-bounded sets: how long a consumed id must stay remembered. Must be positive for the
    /// strategies that use it.
    public var retention: Duration
    /// Time-bounded filters: the expected ids per second, used with `retention` for sizing.
    public var expectedRatePerSecond: Double

    public init(
        capacity: Int = 65_536,
        falsePositiveRate: Double = 0.01,
        retention: Duration = .seconds(30),
        expectedRatePerSecond: Double = 1_000
    ) {
        self.capacity = capacity
        self.falsePositiveRate = falsePositiveRate
        self.retention = retention
        self.expectedRatePerSecond = expectedRatePerSecond
    }
}
