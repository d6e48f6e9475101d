import struct Foundation.Data
import struct Foundation.Date
import class Foundation.FileManager
import struct Foundation.URL

extension TraceRecorder where Sink == TraceFileSink {
    /// Continues the trace at `url` after the app was relaunched: one call per launch after the
    /// first.
    ///
    /// It reads the file an earlier launch wrote (its origin, its latest time, and the envelopes
    /// its payloads created, so that this launch's emits of them are written and its `d` tokens
    /// stay unique), then appends `relaunch` at the wall-clock time of this launch: `relaunchedAt`
    /// minus the file's `origin_unix_ms`, or the file's latest time if the wall clock went back.
    /// So the time the app was dead, hours or days, is in the trace. This launch's event times,
    /// which its deduplicator's clock counts from about now, are offset by the relaunch time.
    ///
    /// - Parameters:
    ///   - routes: the route mode of the earlier launches (a file holds one mode).
    ///   - relaunchedAt: the wall-clock time of this launch; injected by tests.
    /// - Throws: ``TraceFileError`` naming the file and line when the file cannot be read, was
    ///   not written by this recorder (no origin comment, another header or route mode), or its
    ///   tail is not whole (a line cut off by a kill mid-write).
    /// - Complexity: O(file size).
    public static func resume(
        from url: URL, routes: RouteRecording = .verbatim, relaunchedAt: Date = Date()
    ) throws(TraceFileError) -> TraceRecorder<TraceFileSink> {
        let name = url.lastPathComponent
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw TraceFileError(fileName: name, line: 0, reason: "cannot read: \(error)")
        }
        let tail = try _TraceTail(bytes, fileName: name)
        guard tail.routeMode == routes.modeName else {
            throw TraceFileError(
                fileName: name, line: 1, reason: "recorded with routes \(tail.routeMode); resume with the same route mode")
        }
        let (milliseconds, late) = unixMilliseconds(relaunchedAt).subtractingReportingOverflow(tail.originUnixMilliseconds)
        let (elapsed, overflow) = milliseconds.multipliedReportingOverflow(by: 1_000_000)
        let wallClock = late || overflow ? (milliseconds < 0 ? Int64.min : .max) : elapsed
        let relaunch = Timestamp(nanoseconds: Swift.max(wallClock, tail.latest))
        return TraceRecorder(sink: try openSink(url), routes: routes, resuming: tail, relaunchAt: relaunch)
    }

    /// The recorder for `url` at this launch: a new trace when there is no file (or an empty
    /// one), otherwise ``resume(from:routes:relaunchedAt:)``.
    ///
    /// ```swift
    /// let recorder = try TraceRecorder.recording(to: traceURL, routes: .hashed())
    /// ```
    ///
    /// - Throws: ``TraceFileError`` as `resume` does, or when the file cannot be created.
    public static func recording(
        to url: URL, routes: RouteRecording = .verbatim, now: Date = Date()
    ) throws(TraceFileError) -> TraceRecorder<TraceFileSink> {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        if size > 0 { return try resume(from: url, routes: routes, relaunchedAt: now) }
        return TraceRecorder(sink: try openSink(url), routes: routes, startedAt: now)
    }

    private static func openSink(_ url: URL) throws(TraceFileError) -> TraceFileSink {
        do {
            return try TraceFileSink(appendingTo: url)
        } catch {
            throw TraceFileError(fileName: url.lastPathComponent, line: 0, reason: "cannot open for appending: \(error)")
        }
    }
}

/// What resuming needs from a trace this recorder wrote: its origin and route mode, its latest
/// time, the first envelope token of every envelope its payloads created, and its highest `d`
/// token.
struct _TraceTail {
    var routeMode = ""
    var originUnixMilliseconds: Int64 = 0
    var latest: Int64 = .min
    var firstTokens = _EnvelopeTokens()
    var lastDelivery = 0

    init(_ bytes: [UInt8], fileName: String) throws(TraceFileError) {
        func failure(_ line: Int, _ reason: String) -> TraceFileError {
            TraceFileError(fileName: fileName, line: line, reason: reason)
        }
        guard !bytes.isEmpty else { throw failure(0, "empty file: nothing to resume") }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard bytes.last == UInt8(ascii: "\n") else {
            throw failure(lines.count, "the last line is cut off (the app was killed while writing it): remove it to resume")
        }
        var origin: Int64?
        var sawHeader = false
        var fields: [Range<Int>] = []
        for (index, line) in lines.dropLast().enumerated() {
            let number = index + 1
            let text = String(decoding: line, as: UTF8.self)
            if text.isEmpty { continue }
            if text.hasPrefix("#") {
                if !sawHeader, text.hasPrefix(TraceFormat.recorderCommentPrefix), text.hasSuffix(")") {
                    routeMode = String(text.dropFirst(TraceFormat.recorderCommentPrefix.count).dropLast())
                } else if !sawHeader, text.hasPrefix("# " + TraceFormat.originKey) {
                    guard let value = Int64(text.dropFirst(2 + TraceFormat.originKey.count)) else {
                        throw failure(number, "the origin comment holds no whole number of milliseconds")
                    }
                    origin = value
                }
                continue
            }
            guard sawHeader else {
                let header = TraceFormat.header(columns: TraceFormat.recorderColumnCount)
                guard text == header else {
                    throw failure(number, "the header is not '\(header)': not a file this recorder wrote")
                }
                guard let origin else {
                    throw failure(number, "no '# \(TraceFormat.originKey)' comment before the header: not a file this recorder wrote")
                }
                originUnixMilliseconds = origin
                sawHeader = true
                continue
            }
            TraceFormat.splitFields(bytes, line.indices, into: &fields)
            guard fields.count == TraceFormat.recorderColumnCount else {
                throw failure(number, "expected \(TraceFormat.recorderColumnCount) columns, found \(fields.count)")
            }
            guard let time = bytes[fields[0]].withUnsafeBufferPointer({ TraceFormat.parseMilliseconds($0) }) else {
                throw failure(number, "bad time_ms '\(String(decoding: bytes[fields[0]], as: UTF8.self))'")
            }
            latest = Swift.max(latest, time)
            let kind = bytes[fields[1]]
            if kind.elementsEqual("payload".utf8) {
                try notePayload(
                    envelope: bytes[fields[2]], pushID: bytes[fields[TraceFormat.pushColumn]], line: number, failure: failure)
            } else if !["emit", "relaunch", "background"].contains(where: { kind.elementsEqual($0.utf8) }) {
                throw failure(number, "unknown kind '\(String(decoding: kind, as: UTF8.self))'")
            }
        }
        guard sawHeader else { throw failure(0, "no header line: not a file this recorder wrote") }
    }

    /// Records the first token of the payload's envelope, keyed as the recorder keys it: the push
    /// id's bits when the line has one, the envelope token's otherwise.
    private mutating func notePayload(
        envelope: ArraySlice<UInt8>, pushID: ArraySlice<UInt8>, line: Int, failure: (Int, String) -> TraceFileError
    ) throws(TraceFileError) {
        let token = String(decoding: envelope, as: UTF8.self)
        guard TraceFormat.isToken(envelope) else {
            throw failure(line, "envelope '\(token)' is not 1-64 characters of [A-Za-z0-9_-]")
        }
        let key = TraceFormat.envelopeID(ofToken: pushID.isEmpty ? envelope : pushID)
        let first: _EnvelopeToken
        if let number = Self.deliveryNumber(envelope) {
            lastDelivery = Swift.max(lastDelivery, number)
            first = .delivery(number)
        } else if pushID.isEmpty, token == key.description {
            first = .uuid
        } else {
            first = .verbatim(token)
        }
        firstTokens.insertIfAbsent(key, first)
    }

    /// `n` for a token `d<n>` (no leading zero), else `nil`.
    static func deliveryNumber(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.first == UInt8(ascii: "d"), token.count >= 2, token.count <= 19,
              token[token.startIndex + 1] != UInt8(ascii: "0") else { return nil }
        var number = 0
        for byte in token.dropFirst() {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return number
    }
}
