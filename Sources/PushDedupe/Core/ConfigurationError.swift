/// A strategy configuration that cannot be built. Every initializer throws this instead of
/// trapping, so a bad flag or config file becomes a message, not a crash.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The strategy id, e.g. `bloom`.
    public var strategy: String
    /// The offending parameter, e.g. `falsePositiveRate`.
    public var parameter: String
    /// What is wrong, e.g. `must be in (0, 1), got 1.5`.
    public var reason: String

    public init(strategy: String, parameter: String, reason: String) {
        self.strategy = strategy
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String {
        "\(strategy): invalid \(parameter): \(reason)"
    }
}
