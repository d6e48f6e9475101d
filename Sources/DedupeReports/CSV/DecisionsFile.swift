import DedupeHarness
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file `--decisions FILE.csv` streams every case's per-event decisions into, one case at a
/// time as the run scores it, so a long workload is never held as text. The harness hands each
/// case to it directly (``DecisionSink``), so an event's row is written here, beside its format.
///
/// The harness calls it from the one thread that runs the plan, so the handle is never used
/// concurrently.
package final class DecisionsFile: DecisionSink, @unchecked Sendable {
    private let handle: FileHandle

    /// Creates (or truncates) the file at `path` and writes the header; throws the reason it
    /// cannot.
    ///
    /// Only a new path or a regular file is written (``OutputTarget``): anything else there is
    /// refused before it is opened, and the file is opened with `O_NOFOLLOW` and checked again on
    /// its descriptor before it is truncated, so a link, FIFO or device put there meanwhile is not
    /// written either.
    package init(path: String) throws(PublicationError) {
        guard !path.isEmpty else { throw PublicationError("expected a file") }
        if let problem = OutputTarget.fileProblem(at: path) { throw PublicationError(problem) }
        // O_NONBLOCK: a FIFO that appeared since the check fails to open (ENXIO) or opens at once,
        // rather than blocking until a reader comes.
        // Never following a symbolic link at the last component.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            let code = errno
            throw PublicationError(code == ELOOP || code == ENXIO ? OutputTarget.fileProblem(at: path) ?? "cannot write there"
                : "cannot write there (\(String(cString: strerror(code))))")
        }
        // Closed when the handle goes, also when a check below refuses the file.
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw PublicationError(OutputTarget.fileProblem(at: path) ?? "not a regular file")
        }
        guard ftruncate(descriptor, 0) == 0, (try? handle.write(contentsOf: Data(DecisionsCSV.headerLine.utf8))) != nil else {
            throw PublicationError("cannot write there")
        }
        self.handle = handle
    }

    /// Appends one case's rows.
    package func write(_ decisions: CaseDecisions) throws {
        try handle.write(contentsOf: Data(DecisionsCSV.rows(decisions).utf8))
    }

    package func close() {
        try? handle.close()
    }
}
