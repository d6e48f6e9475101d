/// The one check of a configured `capacity`, shared by every window and consumed set, so that
/// each strategy refuses a bad capacity with the same words.
@usableFromInline
enum _CapacityValidation {
    /// The largest capacity an indexed strategy accepts: 2³⁰ keeps every slot number, `Int32`
    /// link and doubled table size inside `Int32` and `Int`, far beyond any push workload.
    @usableFromInline static let maximum = 1 << 30

    /// How the upper bound reads in a message. Windows and consumed sets have always spelled
    /// the same bound differently, and messages are part of the CLI's output.
    enum Spelling {
        /// `must be at most 1073741824, got …`
        case plain
        /// `must be at most 1073741824 (2^30), got …`
        case powerOfTwo
    }

    /// Returns `capacity` if it is not negative and, when `bounded`, at most ``maximum``.
    ///
    /// - Throws: ``ConfigurationError`` naming `strategy` and the parameter `capacity`.
    @discardableResult
    static func validated(
        _ capacity: Int, strategy: String, bounded spelling: Spelling? = nil
    ) throws(ConfigurationError) -> Int {
        guard capacity >= 0 else {
            throw ConfigurationError(
                strategy: strategy, parameter: "capacity", reason: "must not be negative, got \(capacity)")
        }
        if let spelling, capacity > maximum {
            let bound = spelling == .plain ? "\(maximum)" : "\(maximum) (2^30)"
            throw ConfigurationError(
                strategy: strategy, parameter: "capacity", reason: "must be at most \(bound), got \(capacity)")
        }
        return capacity
    }
}
