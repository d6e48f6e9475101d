/// The largest `capacity` any window accepts: 2³⁰ live fingerprints is far beyond a push window
/// and keeps every slot number and doubled table size inside `Int32` and `Int`.
@usableFromInline let _maximumWindowCapacity = 1 << 30

extension WindowConfiguration {
    /// The window in whole nanoseconds and the capacity, after checking both.
    ///
    /// - Throws: ``ConfigurationError`` naming `strategy` for a negative window, a negative
    ///   capacity, or a capacity above 2³⁰.
    func _validated(for strategy: String) throws(ConfigurationError) -> (window: Int64, capacity: Int) {
        if window < .zero {
            throw ConfigurationError(strategy: strategy, parameter: "window", reason: "must not be negative, got \(window)")
        }
        if capacity < 0 {
            throw ConfigurationError(strategy: strategy, parameter: "capacity", reason: "must not be negative, got \(capacity)")
        }
        if capacity > _maximumWindowCapacity {
            throw ConfigurationError(
                strategy: strategy, parameter: "capacity",
                reason: "must be at most \(_maximumWindowCapacity), got \(capacity)")
        }
        return (window.wholeNanoseconds, capacity)
    }
}
