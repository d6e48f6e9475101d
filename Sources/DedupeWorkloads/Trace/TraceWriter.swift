import Foundation
import PushDedupe

/// Exports a workload as a trace file (format: `Guides/TraceFormat.md`).
///
/// Envelopes and push ids are written as their canonical UUID text (`EnvelopeID.description`),
/// which `EnvelopeID(token:)` maps back to the same 128 bits, or as the token an imported trace
/// used (``Workload/token(of:)``); times with every nanosecond digit, so export then import gives
/// the same events. A workload with action records is written with the 9-column header
/// (`push_id,suppressed,action` last), its action lines among the events where they happened; one
/// with push ids or recorded suppressions with the 8-column header; any other with the 6-column
/// one, so a 6-column trace exports as it was read. Output depends only on the workload: one seed gives a
/// byte-identical file.
///
/// ```swift
/// try TraceWriter.write(workload, to: URL(fileURLWithPath: "burst.csv"))
/// ```
package enum TraceWriter {
    /// Bytes buffered before each write to the file.
    static let flushThreshold = 1 << 20

    /// The whole trace as bytes.
    ///
    /// Route and source strings are written as they are; ``write(_:to:)`` checks that they are
    /// representable first (see ``unrepresentableLabel(in:)``).
    ///
    /// - Complexity: O(*n*) in the number of events.
    package static func encode(_ workload: Workload) -> [UInt8] {
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
    package static func write(_ workload: Workload, to url: URL) throws(TraceError) {
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
    package static func unrepresentableLabel(in workload: Workload) -> String? {
        func problem(_ text: String, allowEmpty: Bool, maximum: Int) -> String? {
            let scalars = text.unicodeScalars
            if scalars.isEmpty && !allowEmpty { return "is empty" }
            if scalars.count > maximum { return "is longer than \(maximum) characters" }
            if scalars.contains(where: { $0 == "," || TraceFormat.isControl($0) }) {
                return "contains a comma or a control character"
            }
            return nil
        }
        for route in workload.routes {
            if let reason = problem(route, allowEmpty: false, maximum: TraceFormat.maximumLabelLength) {
                return "route '\(route.prefix(40))' \(reason)"
            }
        }
        for source in workload.sources {
            if let reason = problem(source, allowEmpty: true, maximum: TraceFormat.maximumLabelLength) {
                return "source '\(source.prefix(40))' \(reason)"
            }
        }
        // The least bad token, so the message does not depend on the dictionary's order.
        let badTokens = workload.envelopeTokens.values.filter { !TraceFormat.isToken($0.utf8) }
        if let token = badTokens.min() { return "token '\(token.prefix(40))' is not 1–64 of [A-Za-z0-9_-]" }
        return nil
    }

    /// Produces the trace in chunks of about ``flushThreshold`` bytes, each line written by the
    /// recorder's line writer.
    private static func encode(_ workload: Workload, into sink: (UnsafeRawBufferPointer) -> Void) {
        let actions = workload.events.columns.actions
        let columns = !actions.isEmpty ? TraceFormat.maximumColumnCount
            : workload.hasPushIDs || !workload.recordedSuppressions.isEmpty ? TraceFormat.suppressedColumn + 1
            : TraceFormat.minimumColumnCount
        var head = commentLines(workload).map { "# " + $0 + "\n" }.joined() + TraceFormat.header(columns: columns) + "\n"
        head.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        let routes = workload.routes.map { Array($0.utf8) }
        let sources = workload.sources.map { Array($0.utf8) }
        // Room for a flush's worth and then one more line, however long: `encode` writes labels and
        // tokens the format does not allow as they are.
        let longestToken = (workload.envelopeTokens.values + actions.tokens).reduce(0) { max($0, $1.utf8.count) }
        let longestLine = _TraceLine.capacity + (routes.map(\.count).max() ?? 0) + (sources.map(\.count).max() ?? 0)
            + (actions.keys.map(\.utf8.count).max() ?? 0) + 3 * longestToken
        var storage = [UInt8](repeating: 0, count: flushThreshold + longestLine)
        storage.withUnsafeMutableBufferPointer { buffer in
            var line = _TraceLine(buffer)
            var nextSuppression = 0
            var nextRecord = 0
            var nextCompletion = 0
            for (index, event) in workload.events.enumerated() {
                if line.count >= flushThreshold {
                    sink(line.bytes)
                    line = _TraceLine(buffer)
                }
                while nextRecord < actions.records.count, actions.records[nextRecord].position <= index {
                    write(actions.records[nextRecord], of: actions, to: &line)
                    nextRecord += 1
                }
                line.time(nanoseconds: event.time.nanoseconds)
                if event.kind.isLifecycle {
                    line.text(event.kind == .relaunch ? ",relaunch,,,," : ",background,,,,")
                    for _ in TraceFormat.minimumColumnCount..<columns { line.byte(UInt8(ascii: ",")) }
                    line.byte(UInt8(ascii: "\n"))
                    continue
                }
                line.text(event.kind == .payload ? ",payload," : ",emit,")
                token(event.envelope, of: workload, to: &line)
                line.byte(UInt8(ascii: ","))
                if Int(event.route) < routes.count { line.text(routes[Int(event.route)]) }
                line.byte(UInt8(ascii: ","))
                if Int(event.source) < sources.count { line.text(sources[Int(event.source)]) }
                switch event.truth {
                case .new: line.text(",new")
                case .dup: line.text(",dup")
                case .unknown: line.byte(UInt8(ascii: ","))
                }
                if columns > TraceFormat.minimumColumnCount {
                    line.byte(UInt8(ascii: ","))
                    if Int(event.push) < workload.pushes.count {
                        token(workload.pushes[Int(event.push)], of: workload, to: &line)
                    }
                    line.byte(UInt8(ascii: ","))
                    let suppressions = workload.recordedSuppressions
                    while nextSuppression < suppressions.count, suppressions[nextSuppression].event < index { nextSuppression += 1 }
                    if nextSuppression < suppressions.count, suppressions[nextSuppression].event == index {
                        line.text(suppressions[nextSuppression].layer.rawValue)
                    }
                }
                if columns > TraceFormat.actionColumn {
                    line.byte(UInt8(ascii: ","))
                    let completions = actions.completions
                    while nextCompletion < completions.count, completions[nextCompletion].event < index { nextCompletion += 1 }
                    if nextCompletion < completions.count, completions[nextCompletion].event == index {
                        line.text(actions.tokens[Int(completions[nextCompletion].action)])
                    }
                }
                line.byte(UInt8(ascii: "\n"))
            }
            // Actions after the last event; the buffer holds a flush's worth and one line more.
            for record in actions.records[nextRecord...] {
                if line.count >= flushThreshold {
                    sink(line.bytes)
                    line = _TraceLine(buffer)
                }
                write(record, of: actions, to: &line)
            }
            if line.count > 0 { sink(line.bytes) }
        }
    }

    /// `TIME,action_start,,KEY,,,,,ACTION`, or a finish or cancel with an empty key.
    private static func write(_ record: ActionRecord, of actions: ActionLog, to line: inout _TraceLine) {
        line.time(nanoseconds: record.time.nanoseconds)
        line.byte(UInt8(ascii: ","))
        line.text(record.kind.traceKind)
        line.text(",,")
        if record.kind == .started { line.text(actions.keys[Int(record.key)]) }
        line.text(",,,,,")
        line.text(actions.tokens[Int(record.action)])
        line.byte(UInt8(ascii: "\n"))
    }

    /// The trace's own token for `id` when it had one, else its canonical UUID text.
    private static func token(_ id: EnvelopeID, of workload: Workload, to line: inout _TraceLine) {
        if !workload.envelopeTokens.isEmpty, let token = workload.envelopeTokens[id] {
            line.text(token)
        } else {
            line.uuid(id)
        }
    }

    /// The name and summary, without line breaks, as leading comments.
    private static func commentLines(_ workload: Workload) -> [String] {
        func oneLine(_ text: String) -> String {
            String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
        }
        return [oneLine(workload.summary.isEmpty ? workload.name : workload.name + ": " + workload.summary)]
    }
}
