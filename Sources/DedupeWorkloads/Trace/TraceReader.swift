import Foundation
import PushDedupe

/// Imports a trace file (format: `Guides/TraceFormat.md`) as a workload.
///
/// The file is streamed in chunks: only the current chunk, one partial line and the events
/// parsed so far are held, never the whole text. Any malformed line fails the whole import with
/// the file name, line number and reason; nothing is returned partially, and no byte sequence
/// makes the reader crash.
///
/// ```swift
/// do {
///     let workload = try TraceReader.read(url: URL(fileURLWithPath: "session.csv"))
/// } catch {
///     print(error)  // session.csv:12: time_ms decreases (4.5 after 7)
/// }
/// ```
package enum TraceReader {
    /// Bytes read from the file at a time.
    static let chunkSize = 1 << 20

    /// Reads and validates the trace at `url`. The workload is named after the file; its
    /// summary is the file's first comment.
    ///
    /// - Throws: ``TraceError`` for an unreadable or malformed file.
    /// - Complexity: O(*n*) in the file's size, with expected O(1) dictionary work per line.
    package static func read(url: URL) throws(TraceError) -> Workload {
        let fileName = url.lastPathComponent
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw TraceError(fileName: fileName, line: 0, kind: .io, reason: "cannot open \(url.path)")
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map { Int(clamping: $0) } ?? 0
        do {
            try handle.seek(toOffset: 0)
        } catch {
            throw TraceError(fileName: fileName, line: 0, kind: .io, reason: "cannot read \(url.path)")
        }
        return try read(handle: handle, fileName: fileName, expectedBytes: size)
    }

    /// Reads and validates a trace from `handle` (a file or standard input) to its end, streamed
    /// like `read(url:)`. The workload is named `fileName`.
    ///
    /// - Throws: ``TraceError`` for an unreadable or malformed trace, naming `fileName`.
    /// - Complexity: O(*n*) in the number of bytes read.
    package static func read(handle: FileHandle, fileName: String) throws(TraceError) -> Workload {
        try read(handle: handle, fileName: fileName, expectedBytes: 0)
    }

    /// `read(handle:fileName:)` with the trace's size in bytes when known, to reserve its events.
    static func read(handle: FileHandle, fileName: String, expectedBytes: Int) throws(TraceError) -> Workload {
        var parser = TraceParser(fileName: fileName, expectedBytes: expectedBytes)
        while true {
            let data: Data?
            do {
                data = try handle.read(upToCount: chunkSize)
            } catch {
                throw TraceError(fileName: fileName, line: 0, kind: .io, reason: "cannot read: \(error)")
            }
            guard let data, !data.isEmpty else { break }
            try parser.consume([UInt8](data))
        }
        return try parser.finish()
    }

    /// Reads a trace already in memory, e.g. from a test or a pipe.
    ///
    /// - Throws: ``TraceError`` for a malformed trace, naming `fileName`.
    /// - Complexity: O(*n*) in the number of bytes.
    package static func read(bytes: [UInt8], fileName: String) throws(TraceError) -> Workload {
        var parser = TraceParser(fileName: fileName)
        try parser.consume(bytes)
        return try parser.finish()
    }
}
