import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one file so that readers see either the old contents or the new, never a half. A set
/// of files that readers take as one (the reports of a run) goes through `DirectoryPublication`
/// instead.
package enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, flushes it, then renames it over `url`.
    ///
    /// `rename(2)` within one directory is atomic, so an interrupted run leaves the previous
    /// file in place. Only a missing path or a regular file is replaced: a symbolic link, a FIFO,
    /// a device or a socket at `url` is refused (`PublicationError`, see ``OutputTarget``) and
    /// left as it was.
    package static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { temporary in
            var steps = _FileSteps()
            try steps.writeSynced(data, to: temporary.path)
        }
    }

    /// Lets `produce` write a temporary file beside `url` (streaming, for large files), then
    /// flushes it and renames it over `url`. If `produce` throws, the temporary is removed and
    /// `url` is untouched. The target is checked before `produce` runs and again, without a
    /// window for a race, when the file is moved into place (`_FileSteps.moveFile`).
    package static func write(to url: URL, using produce: (URL) throws -> Void) throws {
        if let problem = OutputTarget.fileProblem(at: url.path) { throw PublicationError(problem) }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        var steps = _FileSteps()
        do {
            try produce(temporary)
            try steps.sync(temporary.path)
            try steps.moveFile(temporary.path, over: url.path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try? steps.sync(url.deletingLastPathComponent().path)
    }
}
