import DedupeReports
import DedupeWorkloads
import Foundation

/// The command line's use of the workload module's trace reader and writer, with their errors
/// turned into one-line command-line errors.
enum TraceFiles {
    /// Imports the trace at `path`. A missing or unreadable file is named plainly; a malformed
    /// one fails as `file:line: reason`.
    static func read(path: String) throws(CommandLineError) -> Workload {
        if let problem = FileErrors.unreadable(path) {
            throw CommandLineError(.unreadableFile, "cannot read '\(path)': \(problem)")
        }
        do {
            return try TraceReader.read(url: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(error.kind == .io ? .unreadableFile : .malformedInput, error.description)
        }
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
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}

/// Short reasons for file errors, without Foundation's long localized sentences.
enum FileErrors {
    /// Why `path` cannot be read as a file, or `nil` when it can.
    static func unreadable(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file" }
        if isDirectory.boolValue { return "is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return nil
    }

    /// The reason for a failed read of `path`.
    static func reason(_ error: any Error, path: String) -> String {
        unreadable(path) ?? "unreadable"
    }
}
