import DedupeHarness
import DedupeReports
import Foundation

/// The file `--decisions FILE.csv` streams every case's per-event decisions into, one case at a
/// time as the run scores it, so a long workload is never held as text.
///
/// The harness calls the sink from the one thread that runs the plan, so the handle is never
/// used concurrently.
final class DecisionsFile: @unchecked Sendable {
    static let option = OptionSpec(
        "decisions", value: "FILE.csv",
        help: "Also write every case's decision on every event (event,time_ms,kind,envelope,truth,mode,window,consumed,decision).")

    private let handle: FileHandle

    /// Creates (or truncates) the file named by `--decisions` and writes the header; `nil` when
    /// the option is absent.
    static func open(_ arguments: ParsedArguments) throws(CommandLineError) -> DecisionsFile? {
        guard let path = arguments.value("decisions") else { return nil }
        guard !path.isEmpty, FileManager.default.createFile(atPath: path, contents: Data(DecisionsCSV.headerLine.utf8)),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw CommandLineError(.badValue, "invalid value '\(path)' for '--decisions': cannot write there")
        }
        handle.seekToEndOfFile()
        return DecisionsFile(handle: handle)
    }

    private init(handle: FileHandle) {
        self.handle = handle
    }

    /// Appends one case's rows.
    func write(_ decisions: CaseDecisions) throws {
        try handle.write(contentsOf: Data(DecisionsCSV.rows(decisions).utf8))
    }

    func close() {
        try? handle.close()
    }
}
