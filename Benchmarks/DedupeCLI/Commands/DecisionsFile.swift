import DedupeHarness
import DedupeReports
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file `--decisions FILE.csv` streams every case's per-event decisions into, one case at a
/// time as the run scores it, so a long workload is never held as text.
///
/// The harness calls the sink from the one thread that runs the plan, so the handle is never
/// used concurrently.
final class DecisionsFile: @unchecked Sendable {
    /// The columns are read from the writer's header, so the help cannot list old ones.
    static let option = OptionSpec(
        "decisions", value: "FILE.csv",
        help: "Also write every case's decision on every event (\(DecisionsCSV.header.joined(separator: ","))).")

    private let handle: FileHandle

    /// Creates (or truncates) the file named by `--decisions` and writes the header; `nil` when
    /// the option is absent.
    ///
    /// Only a new path or a regular file is written (``OutputTarget``): anything else there is
    /// refused before it is opened, and the file is opened with `O_NOFOLLOW` and checked again on
    /// its descriptor before it is truncated, so a link, FIFO or device put there meanwhile is not
    /// written either.
    static func open(_ arguments: ParsedArguments) throws(CommandLineError) -> DecisionsFile? {
        guard let path = arguments.value(option) else { return nil }
        func refused(_ reason: String) -> CommandLineError {
            CommandLineError(.badValue, "invalid value '\(path)' for '--decisions': \(reason)")
        }
        guard !path.isEmpty else { throw refused("expected a file") }
        if let problem = OutputTarget.fileProblem(at: path) { throw refused(problem) }
        // O_NONBLOCK: a FIFO that appeared since the check fails to open (ENXIO) or opens at once,
        // rather than blocking until a reader comes.
        let descriptor = openWithoutFollowing(path)
        guard descriptor >= 0 else {
            let code = errno
            throw refused(code == ELOOP || code == ENXIO ? OutputTarget.fileProblem(at: path) ?? "cannot write there"
                : "cannot write there (\(String(cString: strerror(code))))")
        }
        // Closed when the handle goes, also when a check below refuses the file.
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw refused(OutputTarget.fileProblem(at: path) ?? "not a regular file")
        }
        guard ftruncate(descriptor, 0) == 0, (try? handle.write(contentsOf: Data(DecisionsCSV.headerLine.utf8))) != nil else {
            throw refused("cannot write there")
        }
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

/// `open(2)` for writing, creating the file, never following a symbolic link at the last
/// component, and never blocking on a FIFO. Outside the type, whose `open` would shadow it.
private func openWithoutFollowing(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o666)
}
