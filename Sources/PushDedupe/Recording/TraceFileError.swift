/// Why a trace file could not be opened or resumed: the file, the 1-based line (0 for the whole
/// file) and the reason, written `session.csv:12: reason`.
public struct TraceFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's name.
    public var fileName: String
    /// The 1-based line, or 0 when the problem is the whole file.
    public var line: Int
    /// What is wrong, in words.
    public var reason: String

    public init(fileName: String, line: Int, reason: String) {
        self.fileName = fileName
        self.line = line
        self.reason = reason
    }

    public var description: String { line > 0 ? "\(fileName):\(line): \(reason)" : "\(fileName): \(reason)" }
}
