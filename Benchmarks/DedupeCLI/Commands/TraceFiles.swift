import DedupeCommandLine
import DedupeReports
import DedupeWorkloads
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line's use of the workload module's trace reader and writer, with their errors
/// turned into one-line command-line errors.
enum TraceFiles {
    /// Imports the trace at `path`, or standard input for `-` (named `stdin`). A missing,
    /// unreadable or non-regular file (a FIFO would block forever) is named plainly; a malformed
    /// one fails as `file:line: reason`.
    static func read(path: String) throws(CommandLineError) -> Workload {
        do {
            if path == "-" { return try TraceReader.read(handle: .standardInput, fileName: "stdin") }
            if let problem = FileErrors.unreadable(path) {
                throw CommandLineError(.unreadableFile, "cannot read '\(path)': \(problem)")
            }
            return try TraceReader.read(url: URL(fileURLWithPath: path))
        } catch let error as TraceError {
            throw CommandLineError(error.kind == .io ? .unreadableFile : .malformedInput, error.description)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw CommandLineError(.unreadableFile, "cannot read '\(path)'")
        }
    }

    /// Why `workload` gives nothing to measure, or `nil`: no events, or no payload (every emit
    /// needs an earlier payload, so the events are all of the kinds that carry no push, such as
    /// relaunches).
    static func nothingToMeasure(in workload: Workload) -> String? {
        guard !workload.events.isEmpty else { return "the trace has no events" }
        guard !workload.events.contains(where: { $0.kind == .payload }) else { return nil }
        var kinds: [String] = []
        for event in workload.events where !kinds.contains("\(event.kind)") { kinds.append("\(event.kind)") }
        return "the trace has no payload, only \(workload.events.count) \(kinds.joined(separator: " and ")) line(s): "
            + "there is nothing to deduplicate"
    }

    /// The trace text of `workload`, for standard output.
    static func encode(_ workload: Workload) throws(CommandLineError) -> [UInt8] {
        if let problem = TraceWriter.unrepresentableLabel(in: workload) {
            throw CommandLineError(.malformedInput, "\(workload.name) cannot be written as a trace: \(problem)")
        }
        return TraceWriter.encode(workload)
    }

    /// Streams the trace of `workload` to `path`, replacing any file there atomically.
    static func write(_ workload: Workload, to path: String) throws(CommandLineError) {
        let url = URL(fileURLWithPath: path)
        do {
            try AtomicFile.write(to: url) { temporary in try TraceWriter.write(workload, to: temporary) }
        } catch let error as TraceError {
            throw CommandLineError(error.kind == .io ? .unreadableFile : .malformedInput, "cannot write '\(path)': \(error.reason)")
        } catch let error as PublicationError {
            throw CommandLineError(.unreadableFile, "cannot write '\(path)': \(error.description)")
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}

/// Short reasons for file errors, without Foundation's long localized sentences.
enum FileErrors {
    /// Why `path` cannot be read as a regular file, or `nil` when it can. Anything else (a FIFO,
    /// a device, a socket) is refused before it is opened: reading one could block forever.
    static func unreadable(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? "no such file" : String(cString: strerror(errno))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "is a directory"
        default: return "not a regular file"
        }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return nil
    }

    /// The reason for a failed read of `path`.
    static func reason(_ error: any Error, path: String) -> String {
        unreadable(path) ?? "unreadable"
    }
}
