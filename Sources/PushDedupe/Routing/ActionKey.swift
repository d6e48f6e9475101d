/// The name of an async action under the loading guard (`"checkout"`): one action runs per key at
/// a time.
public struct ActionKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.name = name
    }

    public var description: String { name }
}
