@testable import DedupeCommandLine
import Synchronization
@testable import DedupeCLI

/// Captures what a command prints, for in-process tests.
final class RecordingConsole: Sendable {
    private let output = Mutex("")
    private let error = Mutex("")

    var console: Console {
        Console(
            output: { text in self.output.withLock { $0 += text } },
            error: { text in self.error.withLock { $0 += text } })
    }

    var printed: String { output.withLock { $0 } }
    var errorLines: [String] { error.withLock { $0.split(separator: "\n").map(String.init) } }
}
