import struct Foundation.Data
import class Foundation.FileHandle
import class Foundation.FileManager
import struct Foundation.URL

/// Appends a trace to a file, buffering lines in memory so that recording an event costs one
/// copy into the buffer, not a system call.
///
/// The buffer is written to the file when it passes ``bufferLimit`` bytes, and written and
/// fsynced at every `flush()` (the recorder flushes at each `background` line and when it is
/// released) and at `close()`. A kill loses the lines since the last write; the file keeps whole
/// lines (unless the kill lands inside a write call), so it stays a valid trace that
/// ``TraceRecorder/resume(from:routes:relaunchedAt:)`` continues.
///
/// `@unchecked Sendable`: the handle is used only by the recorder that owns the sink, under the
/// recorder's lock.
public struct TraceFileSink: TraceSink, @unchecked Sendable {
    /// Bytes buffered before a write to the file.
    public static let bufferLimit = 16_384

    /// The file.
    public let url: URL
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// Writes to the file that failed (a full disk); their lines are lost.
    public private(set) var failedWrites = 0

    /// Opens `url` for appending, creating an empty file when there is none.
    ///
    /// - Throws: Foundation's error when the file cannot be created or opened.
    public init(appendingTo url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            try Data().write(to: url)
        }
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        self.url = url
        buffer.reserveCapacity(Self.bufferLimit + 512)
    }

    /// - Complexity: O(*n*) in `bytes.count`, plus a file write when the buffer is full.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferLimit { drain() }
    }

    /// Writes the buffer to the file and fsyncs it (`FileHandle.synchronize()`).
    public mutating func flush() {
        drain()
        do {
            try handle.synchronize()
        } catch {
            failedWrites += 1
        }
    }

    /// Writes the buffer to the file, without waiting for the disk.
    private mutating func drain() {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            failedWrites += 1
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file; the sink writes nothing after.
    public mutating func close() {
        flush()
        try? handle.close()
    }
}
