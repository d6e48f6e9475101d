import Foundation
import PushDedupe

/// Exports a workload as a trace file (format: `Guides/TraceFormat.md`).
///
/// Envelopes and push ids are written as their canonical UUID text (`EnvelopeID.description`),
/// which `EnvelopeID(token:)` maps back to the same 128 bits, or as the token an imported trace
/// used (``Workload/token(of:)``); times with every nanosecond digit, so export then import gives
/// the same events. A workload with push ids or recorded suppressions is written with the
/// 8-column header (`push_id,suppressed` last), any other with the 6-column one, so a 6-column
/// trace exports as it was read. Output depends only on the workload: one seed gives a
/// byte-identical file.
///
/// ```swift
/// try TraceWriter.write(workload, to: URL(fileURLWithPath: "burst.csv"))
/// ```
public enum TraceWriter {
    /// Bytes buffered before each write to the file.
    static let flushThreshold = 1 << 20
    private static let payloadField = Array("payload,".utf8)
    private static let emitField = Array("emit,".utf8)
    private static let relaunchField = Array(",relaunch,,,,".utf8)
    private static let backgroundField = Array(",background,,,,".utf8)
    private static let newField = Array(",new".utf8)
    private static let dupField = Array(",dup".utf8)
    private static let unknownField = Array(",".utf8)
    private static let emptyPushColumns = Array(",,".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The whole trace as bytes.
    ///
    /// Route and source strings are written as they are; ``write(_:to:)`` checks that they are
    /// representable first (see ``unrepresentableLabel(in:)``).
    ///
    /// - Complexity: O(*n*) in the number of events.
    public static func encode(_ workload: Workload) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64 + workload.events.count * 96)
        encode(workload) { output.append(contentsOf: $0) }
        return output
    }

    /// Writes the trace to `url`, streaming it in chunks rather than building it in memory.
    ///
    /// - Throws: ``TraceError`` of kind `.invalidField` when a route or source string cannot be
    ///   written in the format, `.io` when the file cannot be created or written.
    /// - Complexity: O(*n*) in the number of events.
    public static func write(_ workload: Workload, to url: URL) throws(TraceError) {
        let fileName = url.lastPathComponent
        if let problem = unrepresentableLabel(in: workload) {
            throw TraceError(fileName: fileName, line: 0, kind: .invalidField, reason: problem)
        }
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: url) else {
            throw TraceError(fileName: fileName, line: 0, kind: .io, reason: "cannot create \(url.path)")
        }
        defer { try? handle.close() }
        var failure: (any Error)?
        encode(workload) { chunk in
            guard failure == nil else { return }
            do { try handle.write(contentsOf: chunk) } catch { failure = error }
        }
        if let failure {
            throw TraceError(fileName: fileName, line: 0, kind: .io, reason: "cannot write: \(failure)")
        }
    }

    /// Why a route, source or token string of `workload` cannot be written so that it reads back
    /// the same (a comma, a control character, an empty or over-long route, an over-long source,
    /// a token outside 1–64 of `[A-Za-z0-9_-]`), or `nil` when all can.
    ///
    /// - Complexity: O(total length of the strings).
    public static func unrepresentableLabel(in workload: Workload) -> String? {
        func problem(_ text: String, allowEmpty: Bool, maximum: Int) -> String? {
            let scalars = text.unicodeScalars
            if scalars.isEmpty && !allowEmpty { return "is empty" }
            if scalars.count > maximum { return "is longer than \(maximum) characters" }
            if scalars.contains(where: { $0 == "," || $0.value < 0x20 || $0.value == 0x7f || (0x80..<0xa0).contains($0.value) }) {
                return "contains a comma or a control character"
            }
            return nil
        }
        for route in workload.routes {
            if let reason = problem(route, allowEmpty: false, maximum: TraceFormat.maximumFingerprintLength) {
                return "route '\(route.prefix(40))' \(reason)"
            }
        }
        for source in workload.sources {
            if let reason = problem(source, allowEmpty: true, maximum: TraceFormat.maximumSourceLength) {
                return "source '\(source.prefix(40))' \(reason)"
            }
        }
        // The least bad token, so the message does not depend on the dictionary's order.
        let badTokens = workload.envelopeTokens.values.filter { token in
            token.utf8.isEmpty || token.utf8.count > TraceFormat.maximumEnvelopeLength
                || !token.utf8.allSatisfy(TraceFormat.isEnvelopeByte)
        }
        if let token = badTokens.min() { return "token '\(token.prefix(40))' is not 1–64 of [A-Za-z0-9_-]" }
        return nil
    }

    /// Produces the trace in chunks of about ``flushThreshold`` bytes.
    private static func encode(_ workload: Workload, into sink: ([UInt8]) -> Void) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(flushThreshold + 1_024)
        for line in commentLines(workload) {
            buffer.append(contentsOf: Array(("# " + line + "\n").utf8))
        }
        let columns = workload.hasPushIDs || !workload.recordedSuppressions.isEmpty
            ? TraceFormat.suppressedColumn + 1 : TraceFormat.minimumColumnCount
        buffer.append(contentsOf: Array((TraceFormat.header(columns: columns) + "\n").utf8))
        let routes = workload.routes.map { Array($0.utf8) }
        let sources = workload.sources.map { Array($0.utf8) }
        let windowField = Array(RecordedSuppression.Layer.window.rawValue.utf8)
        let consumedSetField = Array(RecordedSuppression.Layer.consumedSet.rawValue.utf8)
        var nextSuppression = 0
        for (index, event) in workload.events.enumerated() {
            TraceFormat.appendMilliseconds(event.time.nanoseconds, to: &buffer)
            if event.kind.isLifecycle {
                buffer.append(contentsOf: event.kind == .relaunch ? relaunchField : backgroundField)
                if columns > TraceFormat.minimumColumnCount { buffer.append(contentsOf: emptyPushColumns) }
                buffer.append(UInt8(ascii: "\n"))
                continue
            }
            buffer.append(UInt8(ascii: ","))
            buffer.append(contentsOf: event.kind == .payload ? payloadField : emitField)
            appendToken(event.envelope, of: workload, to: &buffer)
            buffer.append(UInt8(ascii: ","))
            if Int(event.route) < routes.count { buffer.append(contentsOf: routes[Int(event.route)]) }
            buffer.append(UInt8(ascii: ","))
            if Int(event.source) < sources.count { buffer.append(contentsOf: sources[Int(event.source)]) }
            switch event.truth {
            case .new: buffer.append(contentsOf: newField)
            case .dup: buffer.append(contentsOf: dupField)
            case .unknown: buffer.append(contentsOf: unknownField)
            }
            if columns > TraceFormat.minimumColumnCount {
                buffer.append(UInt8(ascii: ","))
                if Int(event.push) < workload.pushes.count {
                    appendToken(workload.pushes[Int(event.push)], of: workload, to: &buffer)
                }
                buffer.append(UInt8(ascii: ","))
                let suppressions = workload.recordedSuppressions
                while nextSuppression < suppressions.count, suppressions[nextSuppression].event < index { nextSuppression += 1 }
                if nextSuppression < suppressions.count, suppressions[nextSuppression].event == index {
                    buffer.append(contentsOf: suppressions[nextSuppression].layer == .window ? windowField : consumedSetField)
                }
            }
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= flushThreshold {
                sink(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { sink(buffer) }
    }

    /// The trace's own token for `id` when it had one, else its canonical UUID text.
    private static func appendToken(_ id: EnvelopeID, of workload: Workload, to output: inout [UInt8]) {
        if !workload.envelopeTokens.isEmpty, let token = workload.envelopeTokens[id] {
            output.append(contentsOf: token.utf8)
        } else {
            appendUUID(id, to: &output)
        }
    }

    /// The name and summary, without line breaks, as leading comments.
    private static func commentLines(_ workload: Workload) -> [String] {
        func oneLine(_ text: String) -> String {
            String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
        }
        return [oneLine(workload.summary.isEmpty ? workload.name : workload.name + ": " + workload.summary)]
    }

    /// The same text as `EnvelopeID.description`, without building a `String`.
    private static func appendUUID(_ envelope: EnvelopeID, to output: inout [UInt8]) {
        for (half, value) in [envelope.high, envelope.low].enumerated() {
            for nibble in 0..<16 {
                let position = half * 16 + nibble
                if position == 8 || position == 12 || position == 16 || position == 20 {
                    output.append(UInt8(ascii: "-"))
                }
                output.append(hexDigits[Int((value >> UInt64(60 - 4 * nibble)) & 0xf)])
            }
        }
    }
}
