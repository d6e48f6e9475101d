/// A window that keeps its time in a `_WindowClock`, so that its public initializer and `admit`
/// are written once, here. The initializer checks the configuration, then builds the window's
/// storage; `admit` runs the debug invariant check and steps the clock (clamping time that runs
/// backwards), then hands the digest to the window's `_admit`, the only part windows differ in.
@usableFromInline
protocol _ClockedWindow: FingerprintWindow, _InvariantChecked {
    var _clock: _WindowClock { get set }

    /// An empty window on `clock`, with `capacity` already checked.
    init(clock: _WindowClock, capacity: Int)

    /// Admits `key` at the clamped time `now`; an entry seen before `cutoff` has expired.
    mutating func _admit(_ key: UInt64, now: Int64, cutoff: Int64) -> Bool
}

extension _ClockedWindow {
    /// - Throws: ``ConfigurationError`` for a negative window or capacity.
    public init(configuration: WindowConfiguration) throws(ConfigurationError) {
        self.init(clock: try _WindowClock(validating: configuration, for: Self.strategyID), capacity: configuration.capacity)
    }

    @inlinable public var window: Duration { _clock.duration }

    @inlinable @inline(__always)
    public mutating func admit(_ fingerprint: RouteFingerprint, at time: Timestamp) -> Bool {
        #if PUSHDEDUPE_INTERNAL_CHECKS
        defer { _checkInvariants() }
        #endif
        let (now, cutoff) = _clock.advance(to: time)
        return _admit(fingerprint.rawValue, now: now, cutoff: cutoff)
    }
}
