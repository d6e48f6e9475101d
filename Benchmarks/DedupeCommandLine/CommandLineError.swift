/// A usage or input error: printed as one line, `dedupe-bench: error: …`, with exit code 2.
package struct CommandLineError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, which error class it belongs to.
    package enum Kind: Sendable, Equatable {
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

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
