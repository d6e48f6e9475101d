import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one file so that readers see either the old contents or the new, never a half. A set
/// of files that readers take as one (the reports of a run) goes through `DirectoryPublication`
/// instead.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, flushes it, then renames it over `url`.
    ///
    /// `rename(2)` within one directory is atomic, so an interrupted run leaves the previous
    /// file in place.
    public static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { temporary in
            var steps = _FileSteps()
            try steps.writeSynced(data, to: temporary.path)
        }
    }

    /// Lets `produce` write a temporary file beside `url` (streaming, for large files), then
    /// flushes it and renames it over `url`. If `produce` throws, the temporary is removed and
    /// `url` is untouched.
    public static func write(to url: URL, using produce: (URL) throws -> Void) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        var steps = _FileSteps()
        do {
            try produce(temporary)
            try steps.sync(temporary.path)
            try steps.rename(temporary.path, url.path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try? steps.sync(url.deletingLastPathComponent().path)
    }
}
