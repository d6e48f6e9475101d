import DedupeHarness
import DedupeWorkloads
import PushDedupe

/// The decisions file of `--decisions FILE.csv`: one row per event and case, so any single
/// navigation can be audited. Columns: `case` (the case's one name, ``CaseID``), `workload`,
/// `event` (1-based position in the workload), `time_ms` (as a trace writes it), `kind` (`payload`, `emit`),
/// `envelope` (the token the trace used, or the UUID text of a generated envelope), `truth`
/// (`new`, `dup`, or empty), and `decision`: `navigated`, `window`, `consumed`, `guard`
/// (suppressed by that layer or the navigation guard) or `skipped` (an emit of an envelope whose
/// payload was suppressed). Events a mode does not take as input (emits in `window-alone`,
/// relaunches, backgrounds) have no row. CRLF line ends, as every CSV report.
package enum DecisionsCSV {
    package static let header = ["case", "workload", "event", "time_ms", "kind", "envelope", "truth", "decision"]

    /// The header line.
    package static var headerLine: String { header.joined(separator: ",") + "\r\n" }

    /// One line per event of `decisions` the mode takes as input.
    ///
    /// - Complexity: O(events).
    package static func rows(_ decisions: CaseDecisions) -> String {
        var text = ""
        let events = decisions.workload.events
        let prefix = "\(CSVTable.quote(decisions.id.text)),\(CSVTable.quote(decisions.id.workload)),"
        for index in events.indices {
            guard let label = decisions.decision(at: index).label else { continue }
            let event = events[index]
            text += prefix + "\(index + 1),\(TraceFormat.milliseconds(event.time.nanoseconds)),\(kindText(event.kind)),"
            text += "\(CSVTable.quote(decisions.workload.token(of: event.envelope))),\(truthText(event.truth)),\(label)\r\n"
        }
        return text
    }

    /// The trace format's name of `kind`.
    static func kindText(_ kind: EventKind) -> String {
        switch kind {
        case .payload: return "payload"
        case .emit: return "emit"
        case .relaunch: return "relaunch"
        case .background: return "background"
        }
    }

    static func truthText(_ truth: Truth) -> String {
        switch truth {
        case .new: return "new"
        case .dup: return "dup"
        case .unknown: return ""
        }
    }

    /// One parsed row.
    package struct Row: Sendable, Equatable {
        package var caseID: String
        package var workload: String
        package var event: Int
        package var timeMilliseconds: String
        package var kind: String
        package var envelope: String
        package var truth: String
        package var decision: String
    }

    /// Why a decisions file could not be read: `LINE: reason`.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var line: Int
        package var reason: String
        package var description: String { "\(line): \(reason)" }
    }

    static let decisionLabels = Set(CaseDecision.allCases.compactMap(\.label))

    /// Reads a decisions file back, checking the header, the column count and every `decision`.
    ///
    /// - Throws: ``ParseError`` naming the first bad line.
    /// - Complexity: O(characters).
    package static func parse(_ text: String) throws(ParseError) -> [Row] {
        var lines = text.components(separatedBy: "\r\n")
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.split(separator: ",", omittingEmptySubsequences: false).map(String.init) == header else {
            throw ParseError(line: 1, reason: "expected the header \(header.joined(separator: ","))")
        }
        var rows: [Row] = []
        for (offset, line) in lines.dropFirst().enumerated() {
            let number = offset + 2
            let fields = Self.fields(line)
            guard fields.count == header.count else {
                throw ParseError(line: number, reason: "expected \(header.count) fields, got \(fields.count)")
            }
            guard let event = Int(fields[2]), event >= 1 else { throw ParseError(line: number, reason: "bad event '\(fields[2])'") }
            guard decisionLabels.contains(fields[7]) else { throw ParseError(line: number, reason: "unknown decision '\(fields[7])'") }
            rows.append(Row(
                caseID: fields[0], workload: fields[1], event: event, timeMilliseconds: fields[3], kind: fields[4],
                envelope: fields[5], truth: fields[6], decision: fields[7]))
        }
        return rows
    }

    /// The fields of one CSV line, RFC 4180 quotes undone.
    static func fields(_ line: String) -> [String] {
        let scalars = Array(line.unicodeScalars)
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if quoted {
                if scalar != "\"" {
                    field.append(scalar)
                } else if index < scalars.count, scalars[index] == "\"" {
                    field.append(scalar)
                    index += 1
                } else {
                    quoted = false
                }
            } else if scalar == "," {
                fields.append(String(field))
                field = String.UnicodeScalarView()
            } else if scalar == "\"" && field.isEmpty {
                quoted = true
            } else {
                field.append(scalar)
            }
        }
        fields.append(String(field))
        return fields
    }
}
