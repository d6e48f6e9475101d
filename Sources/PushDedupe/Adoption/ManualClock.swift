import class Foundation.NSLock

/// A clock that moves only when told to, for tests of code that owns a deduplicator.
///
/// ```swift
/// let clock = ManualClock()
/// let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock))
/// clock.advance(by: .milliseconds(3))
/// ```
///
/// `@unchecked Sendable`: its one mutable field is read and written only under `lock`.
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var _now: Timestamp

    /// A clock that reads `start` until advanced.
    public init(start: Timestamp = .zero) {
        _now = start
    }

    /// The time the clock is at.
    ///
    /// - Complexity: O(1).
    public var now: Timestamp {
        lock.lock()
        defer { lock.unlock() }
        return _now
    }

    /// Moves the clock forwards (or, for a negative `duration`, backwards), saturating at the
    /// `Int64` limits.
    ///
    /// - Complexity: O(1).
    public func advance(by duration: Duration) {
        lock.lock()
        defer { lock.unlock() }
        _now = _now + duration
    }

    /// Sets the clock to `time`.
    ///
    /// - Complexity: O(1).
    public func set(to time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        _now = time
    }
}
