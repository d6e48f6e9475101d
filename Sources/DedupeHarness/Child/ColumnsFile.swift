import DedupeWorkloads
import Foundation
import PushDedupe
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ``EventColumns`` as a binary file, how a child process receives a workload that has no spec
/// to regenerate it from (a replayed trace): the parent writes the events the child needs (a
/// timing fork's timed prefix, the memory pass's events), the child reads them back, and neither
/// ever holds the workload as JSON or as text.
///
/// Layout, native byte order (parent and child are one executable): the magic `PDCOLS01`, the
/// event count and the envelope count as `UInt64`, then the columns one after the other: times
/// (`Int64`), fingerprints (`UInt64`), routes (`UInt32`), sources (`UInt16`), truths and flags
/// (`UInt8`), envelope slots (`Int32`), and the envelope table (two `UInt64` per slot). 28 bytes
/// an event and 16 per envelope; the lifecycle indices are recomputed from the flags.
enum ColumnsFile {
    static let magic = Array("PDCOLS01".utf8)

    /// A file that is not what ``write(_:count:to:)`` wrote, with what is wrong.
    struct Malformed: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): not a columns file: \(reason)" }
    }

    /// Writes the first `count` events of `columns` (with the envelopes they name) to `path`,
    /// straight from the arrays, without building the file in memory.
    ///
    /// - Complexity: O(`count`), plus the envelopes it names.
    static func write(_ columns: EventColumns, count requested: Int, to path: String) throws {
        let count = min(max(0, requested), columns.count)
        let envelopes = count == columns.count ? columns.envelopeCount : columns.envelopeCount(inFirst: count)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Malformed(path: path, reason: "cannot create (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var header = magic
        withUnsafeBytes(of: UInt64(count)) { header += $0 }
        withUnsafeBytes(of: UInt64(envelopes)) { header += $0 }
        try writeAll(descriptor, header[...], path: path)
        try writeAll(descriptor, columns.times[..<count], path: path)
        try writeAll(descriptor, columns.fingerprints[..<count], path: path)
        try writeAll(descriptor, columns.routes[..<count], path: path)
        try writeAll(descriptor, columns.sources[..<count], path: path)
        // Raw values, in slices, so no full-size copy is made.
        var start = 0
        while start < count {
            let end = min(count, start + 1 << 16)
            try writeAll(descriptor, columns.truths[start..<end].map(\.rawValue)[...], path: path)
            start = end
        }
        try writeAll(descriptor, columns.flags[..<count], path: path)
        try writeAll(descriptor, columns.envelopeSlot[..<count], path: path)
        try writeAll(descriptor, columns.envelopeTable[..<envelopes], path: path)
    }

    /// The columns in the file at `path`, or only its first `limit` events.
    ///
    /// - Throws: ``Malformed`` for a file that is short, long, or holds a value no columns can
    ///   (an unknown truth or flag, a slot outside the table).
    /// - Complexity: O(events read + envelopes).
    static func read(_ path: String, limit: Int? = nil) throws -> EventColumns {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Malformed(path: path, reason: "cannot open (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        let header: [UInt8] = try readArray(descriptor, count: magic.count + 16, at: 0, path: path)
        guard Array(header.prefix(magic.count)) == magic else { throw Malformed(path: path, reason: "no magic") }
        let fileCount = header.withUnsafeBytes { Int(truncatingIfNeeded: $0.loadUnaligned(fromByteOffset: magic.count, as: UInt64.self)) }
        let fileEnvelopes = header.withUnsafeBytes { Int(truncatingIfNeeded: $0.loadUnaligned(fromByteOffset: magic.count + 8, as: UInt64.self)) }
        let perEvent = 8 + 8 + 4 + 2 + 1 + 1 + 4
        var status = stat()
        guard fstat(descriptor, &status) == 0, fileCount >= 0, fileEnvelopes >= 0,
              fileCount <= (Int.max - header.count) / (perEvent + 16),
              Int(status.st_size) == header.count + fileCount * perEvent + fileEnvelopes * 16 else {
            throw Malformed(path: path, reason: "its size does not match its counts")
        }
        let count = min(fileCount, max(0, limit ?? fileCount))
        var offset = header.count
        func column<T: BitwiseCopyable>(_: T.Type) throws -> [T] {
            defer { offset += fileCount * MemoryLayout<T>.size }
            return try readArray(descriptor, count: count, at: offset, path: path)
        }
        let times: [Timestamp] = try column(Timestamp.self)
        let fingerprints: [RouteFingerprint] = try column(RouteFingerprint.self)
        let routes: [UInt32] = try column(UInt32.self)
        let sources: [UInt16] = try column(UInt16.self)
        let truthBytes: [UInt8] = try column(UInt8.self)
        let flagBytes: [UInt8] = try column(UInt8.self)
        let slots: [Int32] = try column(Int32.self)
        var highest: Int32 = -1
        var flags: [EventFlags] = []
        flags.reserveCapacity(count)
        for (index, byte) in flagBytes.enumerated() {
            let eventFlags = EventFlags(rawValue: byte)
            let lifecycle = eventFlags.contains(.lifecycle)
            guard EventFlags.all.isSuperset(of: eventFlags), slots[index] >= 0, lifecycle || Int(slots[index]) < fileEnvelopes else {
                throw Malformed(path: path, reason: "event \(index) has flags \(byte) and slot \(slots[index])")
            }
            if !lifecycle { highest = max(highest, slots[index]) }
            flags.append(eventFlags)
        }
        var truths: [Truth] = []
        truths.reserveCapacity(count)
        for (index, byte) in truthBytes.enumerated() {
            guard let truth = Truth(rawValue: byte) else { throw Malformed(path: path, reason: "event \(index) has truth \(byte)") }
            truths.append(truth)
        }
        let envelopes = count == fileCount ? fileEnvelopes : Int(highest) + 1
        let table: [EnvelopeID] = try readArray(descriptor, count: envelopes, at: offset, path: path)
        var columns = EventColumns()
        columns.times = times
        columns.fingerprints = fingerprints
        columns.routes = routes
        columns.sources = sources
        columns.truths = truths
        columns.flags = flags
        columns.envelopeSlot = slots
        columns.envelopeTable = table
        columns.relaunches = flags.indices.filter { flags[$0].contains(.relaunch) }
        columns.lifecycle = flags.indices.filter { flags[$0].contains(.lifecycle) }
        return columns
    }

    /// `values`' bytes.
    private static func writeAll<T: BitwiseCopyable>(_ descriptor: Int32, _ values: ArraySlice<T>, path: String) throws {
        try values.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw Malformed(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
                done += written
            }
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func readArray<T: BitwiseCopyable>(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws -> [T] {
        return try [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let bytes = UnsafeMutableRawBufferPointer(buffer)
            var done = 0
            while done < bytes.count {
                let read = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { throw Malformed(path: path, reason: "short read") }
                done += read
            }
            initialized = count
        }
    }
}
