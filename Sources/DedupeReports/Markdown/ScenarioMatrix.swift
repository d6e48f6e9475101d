import DedupeDecision
import Foundation
import DedupeHarness

/// The mode × scenario table of the published article: for each situation, whether each mode
/// blocked the duplicate, passed the wanted navigation, or missed.
package struct ScenarioMatrix: Sendable, Equatable {
    /// The outcome of one scenario under one mode, with its denominators.
    package struct Verdict: Sendable, Equatable, CustomStringConvertible {
        package var duplicates: Int
        package var blocked: Int
        package var wanted: Int
        package var dropped: Int

        package init(duplicates: Int, blocked: Int, wanted: Int, dropped: Int) {
            self.duplicates = duplicates
            self.blocked = blocked
            self.wanted = wanted
            self.dropped = dropped
        }

        /// `197/200 blocked`, `200/200 passed`, `197/200 blocked, 3/400 dropped`: a dropped wanted
        /// navigation is always shown, as it is worse than a miss.
        package var description: String {
            var parts: [String] = []
            if duplicates > 0 { parts.append("\(blocked)/\(duplicates) blocked") }
            if dropped > 0 || duplicates == 0 {
                parts.append(dropped > 0 ? "\(dropped)/\(wanted) dropped" : "\(wanted)/\(wanted) passed")
            }
            return parts.joined(separator: ", ")
        }

        init(_ correctness: CorrectnessResult) {
            self.init(
                duplicates: correctness.dupEvents, blocked: correctness.dupEvents - correctness.missedDuplicates,
                wanted: correctness.newEvents, dropped: correctness.falseDrops)
        }
    }

    package struct Row: Sendable, Equatable {
        package var scenario: String
        package var summary: String
        /// `device` or `stress` (``Scenario/Tag``).
        package var tag: String
        /// One verdict per mode, `nil` when that mode was not run.
        package var verdicts: [Verdict?]
    }

    package var modes: [CaseMode]
    package var rows: [Row]
    /// The strategies the verdicts were taken from.
    package var strategies: String

    /// The modes in the order the article's table lists them.
    package static let modeOrder: [CaseMode] = [.fingerprintOnly, .envelopeOnly, .twoLayer, .twoLayerGuarded]

    /// Builds the matrix from the cases on the published, NavigationStack and real-world workloads
    /// the results describe, using the reference strategies (`published-literal`, `set`) when present so
    /// the table matches the article, or else the first strategies each mode ran with. Each
    /// summary says how many of the workload's replays fall within the window the run used.
    ///
    /// - Complexity: O(cases × workloads).
    package static func make(from results: RunResults) -> ScenarioMatrix {
        let published = (results.workloads ?? []).filter { ["published", "navigation-stack", "real-world"].contains($0.category) }
        let modes = modeOrder.filter { mode in results.cases.contains { $0.mode == mode } }
        var rows: [Row] = []
        for workload in published {
            let cases = results.cases.filter { $0.workload == workload.id && $0.correctness != nil }
            guard !cases.isEmpty else { continue }
            let verdicts = modes.map { mode -> Verdict? in
                let inMode = cases.filter { $0.mode == mode }
                let reference = inMode.first(where: \.isReference) ?? inMode.first
                return reference?.correctness.map(Verdict.init)
            }
            var summary = workload.description
            if workload.replays > 0 {
                summary += " (\(workload.replaysWithinWindow)/\(workload.replays) replays within the "
                    + "\(NumberText.significant(results.settings.windowMilliseconds)) ms window this run used)"
            }
            rows.append(Row(scenario: workload.id, summary: summary, tag: workload.tag, verdicts: verdicts))
        }
        let usesReference = results.cases.contains(where: \.isReference)
        return ScenarioMatrix(
            modes: modes, rows: rows,
            strategies: usesReference
                ? "\(ReferenceStrategies.window) + \(ReferenceStrategies.consumed) (the published code)"
                : "the first strategies run in each mode")
    }

    /// The matrix as a Markdown table.
    package func markdown() -> String {
        guard !rows.isEmpty else { return "_No published or NavigationStack scenario was run._\n" }
        var table = MarkdownTable(header: ["Scenario"] + modes.map(\.rawValue), alignRight: [])
        for row in rows {
            table.rows.append(["`\(row.scenario)` — \(row.summary)"] + row.verdicts.map { $0?.description ?? "—" })
        }
        return "Verdicts use \(strategies).\n\n" + table.render()
    }

    /// The matrix as a plain-text table for a terminal, with each scenario's tag.
    package func plainText() -> String {
        guard !rows.isEmpty else { return "No published or NavigationStack scenario was run.\n" }
        let header = ["scenario", "tag"] + modes.map(\.rawValue)
        let body = rows.map { [$0.scenario, $0.tag] + $0.verdicts.map { $0?.description ?? "-" } }
        let widths = header.indices.map { column in
            ([header] + body).map { $0[column].count }.max()!
        }
        return ([header] + body).map { cells in
            cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
