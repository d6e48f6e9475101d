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
        try writeAll([(data, url)])
    }

    /// Lets `produce` write a temporary file beside `url` (streaming, for large files), then
    /// renames it over `url`. If `produce` throws, the temporary is removed and `url` is untouched.
    public static func write(to url: URL, using produce: (URL) throws -> Void) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try produce(temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        try moveIntoPlace(temporary, url, leftovers: [])
    }

    /// Writes every file to a temporary beside its target first, and renames them into place
    /// only once all are written, so a failure while writing leaves every previous file as it
    /// was rather than a mix of old and new reports.
    public static func writeAll(_ files: [(data: Data, url: URL)]) throws {
        var temporaries: [URL] = []
        do {
            for file in files {
                let temporary = file.url.deletingLastPathComponent()
                    .appendingPathComponent(".\(file.url.lastPathComponent).\(UUID().uuidString).partial")
                temporaries.append(temporary)
                try file.data.write(to: temporary)
            }
        } catch {
            for temporary in temporaries { try? FileManager.default.removeItem(at: temporary) }
            throw error
        }
        for (index, file) in files.enumerated() {
            try moveIntoPlace(temporaries[index], file.url, leftovers: temporaries[(index + 1)...])
        }
    }

    private static func moveIntoPlace(_ temporary: URL, _ url: URL, leftovers: ArraySlice<URL>) throws {
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            for leftover in leftovers { try? FileManager.default.removeItem(at: leftover) }
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: url.path,
                NSLocalizedDescriptionKey: "cannot rename into \(url.path): \(String(cString: strerror(code)))",
            ])
        }
    }
}
