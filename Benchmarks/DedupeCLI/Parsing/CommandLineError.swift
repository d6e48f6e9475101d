/// A usage or input error: printed as one line, `dedupe-bench: error: …`, with exit code 2.
public struct CommandLineError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, which error class it belongs to.
    public enum Kind: Sendable, Equatable {
        case unknownSubcommand
        case unknownOption
        case missingValue
        case badValue
        case unexpectedArgument
        case missingArgument
        case unreadableFile
        case malformedInput
        case runFailed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
