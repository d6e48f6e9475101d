/// The identity of one piece of route work (a detail fetch) that a ``RouterCore`` started: the
/// shell reports the work's end under the same token, and the core drops a report whose work it
/// no longer waits for.
public struct WorkToken: Hashable, Sendable, CustomStringConvertible {
    /// The core's count of work started before this one.
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String { "work#\(rawValue)" }
}
