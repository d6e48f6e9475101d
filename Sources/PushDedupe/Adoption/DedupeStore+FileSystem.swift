import struct Foundation.Data
import class Foundation.FileManager
import struct Foundation.URL

/// The file operations a store performs, so a test can make one fail.
protocol _StoreFileSystem: Sendable {
    /// The file's bytes, or `nil` when there is no file.
    func contents(of url: URL) throws -> [UInt8]?
    /// Replaces the file atomically: readers see the old bytes or `bytes`, never a mix.
    func replace(_ url: URL, with bytes: [UInt8]) throws
}

/// The real operations, with Foundation only.
struct _FoundationFileSystem: _StoreFileSystem {
    func contents(of url: URL) throws -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return [UInt8](try Data(contentsOf: url))
    }

    /// `Data.write(to:options: .atomic)` creates a temporary file beside `url`, writes it, fsyncs
    /// it and renames it over `url` (swift-foundation, on Linux and on Apple platforms since
    /// macOS 15 / iOS 18: checked with strace here; Apple's earlier Foundation also writes a
    /// temporary and renames it). It is the one Foundation call that renames over an existing
    /// file: `FileManager.moveItem` refuses an existing target, and `replaceItemAt` on Linux falls
    /// back to renaming the original over the replacement, destroying the new bytes.
    ///
    /// The directory is not fsynced, although Foundation could (`FileHandle(forReadingFrom:)` on
    /// it, then `synchronize()`): readers see the old file or the new one either way, and the
    /// directory's fsync would only make the newest save survive a power cut (without it the
    /// previous, whole snapshot comes back). It cost another disk flush per save, 4 to 8 ms on
    /// the machine measured, for every navigated push; an iOS app is killed far more often than
    /// its phone loses power, and a kill needs no fsync at all.
    func replace(_ url: URL, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: url, options: .atomic)
    }
}
