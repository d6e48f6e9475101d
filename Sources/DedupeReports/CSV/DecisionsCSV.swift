import DedupeHarness
import DedupeWorkloads

/// The decisions file of `--decisions FILE.csv`: one row per event and case, so any single
/// navigation can be audited. Columns: `event` (1-based position in the workload), `time_ms`,
/// `kind` (`payload`, `emit`), `envelope` (UUID text), `truth` (`new`, `dup`, or empty), `mode`,
/// `window` and `consumed` (ids, empty when the mode uses none), and `decision`: `navigated`,
/// `window`, `consumed`, `guard` (suppressed by that layer or the navigation guard) or `skipped`
/// (an emit of an envelope whose payload was suppressed). Events a mode does not take as input
/// (emits in `window-alone`) have no row. CRLF line ends, as every CSV report.
public enum DecisionsCSV {
    public static let header = ["event", "time_ms", "kind", "envelope", "truth", "mode", "window", "consumed", "decision"]

    /// The header line.
    public static var headerLine: String { header.joined(separator: ",") + "\r\n" }

    /// One line per event of `decisions` the mode takes as input.
    ///
    /// - Complexity: O(events).
    public static func rows(_ decisions: CaseDecisions) -> String {
        var text = ""
        let events = decisions.workload.events
        let suffix = ",\(decisions.mode.rawValue),\(CSVTable.quote(decisions.window ?? "")),\(CSVTable.quote(decisions.consumed ?? "")),"
        for index in events.indices {
            guard let label = decisions.decision(at: index).label else { continue }
            let event = events[index]
            text += "\(index + 1),\(milliseconds(event.time.nanoseconds)),\(kindText(event.kind)),"
            text += "\(event.envelope),\(truthText(event.truth))\(suffix)\(label)\r\n"
        }
        return text
    }

    /// Exact decimal milliseconds: `180.000125`, `0`, `-2.5`.
    static func milliseconds(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000
        var fraction = String(magnitude % 1_000_000)
        guard fraction != "0" else { return "\(sign)\(whole)" }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
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
    public struct Row: Sendable, Equatable {
        public var event: Int
        public var timeMilliseconds: String
        public var kind: String
        public var envelope: String
        public var truth: String
        public var mode: String
        public var window: String
        public var consumed: String
        public var decision: String
    }

    /// Why a decisions file could not be read: `LINE: reason`.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "\(line): \(reason)" }
    }

    static let decisionLabels = Set(CaseDecision.allCases.compactMap(\.label))

    /// Reads a decisions file back, checking the header, the column count and every `decision`.
    ///
    /// - Throws: ``ParseError`` naming the first bad line.
    /// - Complexity: O(characters).
    public static func parse(_ text: String) throws(ParseError) -> [Row] {
        var lines = text.components(separatedBy: "\r\n")
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.split(separator: ",", omittingEmptySubsequences: false).map(String.init) == header else {
            throw ParseError(line: 1, reason: "expected the header \(header.joined(separator: ","))")
        }
        var rows: [Row] = []
        for (offset, line) in lines.dropFirst().enumerated() {
            let number = offset + 2
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count else {
                throw ParseError(line: number, reason: "expected \(header.count) fields, got \(fields.count)")
            }
            guard let event = Int(fields[0]), event >= 1 else { throw ParseError(line: number, reason: "bad event '\(fields[0])'") }
            guard decisionLabels.contains(fields[8]) else { throw ParseError(line: number, reason: "unknown decision '\(fields[8])'") }
            rows.append(Row(
                event: event, timeMilliseconds: fields[1], kind: fields[2], envelope: fields[3], truth: fields[4],
                mode: fields[5], window: fields[6], consumed: fields[7], decision: fields[8]))
        }
        return rows
    }
}
