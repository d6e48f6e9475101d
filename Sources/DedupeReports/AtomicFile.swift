import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers see either the old contents or the new, never a half.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url`, then renames it over `url`.
    ///
    /// `rename(2)` within one directory is atomic, so an interrupted run leaves the previous
    /// report in place.
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: url.path,
                NSLocalizedDescriptionKey: "cannot rename into \(url.path): \(String(cString: strerror(code)))",
            ])
        }
    }
}
