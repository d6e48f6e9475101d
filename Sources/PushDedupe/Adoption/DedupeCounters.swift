/// What a deduplicator has done since its init, for production dashboards.
///
/// ```swift
/// let counters = dedupe.counters
/// log("navigated \(counters.navigated), window \(counters.suppressedByWindow), "
///     + "consumed set \(counters.suppressedByConsumedSet), failed saves \(counters.failedSaves)")
/// ```
///
/// A rising `suppressedByWindow` share after a release is the sign to look at the window (and to
/// turn it off remotely with `isWindowEnabled`, see `Guides/Pipeline.md`); a rising
/// `suppressedByConsumedSet` share is duplicate deliveries being caught.
public struct DedupeCounters: Sendable, Hashable {
    /// Events handed to navigation.
    public var navigated = 0
    /// Payloads layer 1 dropped.
    public var suppressedByWindow = 0
    /// Events layer 2 dropped: envelopes already consumed.
    public var suppressedByConsumedSet = 0
    /// Successful saves of the consumed set.
    public var saves = 0
    /// Saves that failed (the last one's error is `lastStoreError`); the ids stay in memory and
    /// are written at the next save.
    public var failedSaves = 0
    /// Restores tried: one at init, then one per retry while the file could not be read.
    public var restoreAttempts = 0
    /// Restores that could not read the file (it was left alone, and retried).
    public var failedRestores = 0
    /// Files moved aside as unusable (corrupt, or a set that cannot migrate), never deleted.
    public var filesMovedAside = 0
    /// Newer versions' files found, left untouched.
    public var filesLeftUntouched = 0
    /// Writes not made because the file is a newer version's.
    public var refusedWrites = 0
    /// Whole-state writes held back while the file could not be read, so as not to overwrite it.
    public var deferredWrites = 0
    /// Bytes the store wrote to its files (compactions included): the flash wear.
    public var storeBytesWritten = 0
    /// Journal compactions the store ran.
    public var compactions = 0

    public init() {}

    /// Every decision counted.
    public var events: Int { navigated + suppressedByWindow + suppressedByConsumedSet }
}

/// The decision counters the per-event path updates: one increment per event.
@usableFromInline
struct _DecisionCounts {
    @usableFromInline var navigated = 0
    @usableFromInline var suppressedByWindow = 0
    @usableFromInline var suppressedByConsumedSet = 0

    @usableFromInline
    init() {}

    /// After inlining, each arm sits on the branch that produced `decision`, so this is one
    /// increment.
    @inlinable @inline(__always)
    mutating func count(_ decision: RoutingDecision) {
        switch decision {
        case .navigated: navigated &+= 1
        case .suppressedByWindow: suppressedByWindow &+= 1
        case .suppressedByConsumedSet: suppressedByConsumedSet &+= 1
        }
    }
}
