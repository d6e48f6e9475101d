import struct Foundation.Data
import class Foundation.FileHandle
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
    /// Then the directory is fsynced, so the rename itself survives a power loss: opening a
    /// directory read-only and `FileHandle.synchronize()` is Foundation's `fsync` of it. That is
    /// best effort: a file system that refuses it has already made the rename visible, and a
    /// process kill (the iOS case) needs no fsync at all, so its failure is not a failed save.
    func replace(_ url: URL, with bytes: [UInt8]) throws {
        try Data(bytes).write(to: url, options: .atomic)
        if let directory = try? FileHandle(forReadingFrom: url.deletingLastPathComponent()) {
            try? directory.synchronize()
            try? directory.close()
        }
    }
}
