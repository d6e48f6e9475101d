import Foundation
import DedupeHarness
import DedupeWorkloads

/// The mode × scenario table of the published article: for each situation, whether each mode
/// blocked the duplicate, passed the wanted navigation, or missed.
public struct ScenarioMatrix: Sendable, Equatable {
    /// The outcome of one scenario under one mode.
    public enum Verdict: Sendable, Equatable, CustomStringConvertible {
        /// Every duplicate suppressed, every wanted navigation through.
        case blocked
        /// No duplicates to block; every wanted navigation through.
        case passed
        /// Some duplicates reached the screen.
        case missed(Int)
        /// Some wanted navigations were suppressed (worse than a miss).
        case dropped(Int)

        public var description: String {
            switch self {
            case .blocked: return "blocked"
            case .passed: return "passed"
            case .missed(let count): return "missed (\(count))"
            case .dropped(let count): return "dropped (\(count))"
            }
        }

        init(_ correctness: CorrectnessResult) {
            if correctness.falseDrops > 0 {
                self = .dropped(correctness.falseDrops)
            } else if correctness.missedDuplicates > 0 {
                self = .missed(correctness.missedDuplicates)
            } else {
                self = correctness.dupEvents > 0 ? .blocked : .passed
            }
        }
    }

    public struct Row: Sendable, Equatable {
        public var scenario: String
        public var summary: String
        /// `device` or `stress` (``Scenario/Tag``).
        public var tag: String
        /// One verdict per mode, `nil` when that mode was not run.
        public var verdicts: [Verdict?]
    }

    public var modes: [String]
    public var rows: [Row]
    /// The strategies the verdicts were taken from.
    public var strategies: String

    /// The modes in the order the article's table lists them.
    public static let modeOrder = ["fingerprint-only", "envelope-only", "two-layer", "two-layer-guarded"]

    /// Builds the matrix from the cases on published, NavigationStack and real-world scenarios, using the
    /// reference strategies (`seed-literal`, `set`) when present so the table matches the
    /// article, or else the first strategies each mode ran with.
    ///
    /// - Complexity: O(cases × scenarios).
    public static func make(from results: RunResults, scenarios: [Scenario] = ScenarioCatalogue.all) -> ScenarioMatrix {
        let published = scenarios.filter { [.publishedSituation, .navigationStack, .realWorld].contains($0.category) }
        let modes = modeOrder.filter { mode in results.cases.contains { $0.mode == mode } }
        var rows: [Row] = []
        for scenario in published {
            let cases = results.cases.filter { $0.workload == scenario.id && $0.correctness != nil }
            guard !cases.isEmpty else { continue }
            let verdicts = modes.map { mode -> Verdict? in
                let inMode = cases.filter { $0.mode == mode }
                let reference = inMode.first { isReference($0) } ?? inMode.first
                return reference?.correctness.map(Verdict.init)
            }
            rows.append(Row(scenario: scenario.id, summary: scenario.summary, tag: scenario.tag.rawValue, verdicts: verdicts))
        }
        let usesReference = results.cases.contains(where: isReference)
        return ScenarioMatrix(
            modes: modes, rows: rows,
            strategies: usesReference
                ? "\(ReferenceStrategies.window) + \(ReferenceStrategies.consumed) (the published code)"
                : "the first strategies run in each mode")
    }

    private static func isReference(_ result: CaseResult) -> Bool {
        (result.window == nil || result.window == ReferenceStrategies.window)
            && (result.consumed == nil || result.consumed == ReferenceStrategies.consumed)
    }

    /// The matrix as a Markdown table.
    public func markdown() -> String {
        guard !rows.isEmpty else { return "_No published or NavigationStack scenario was run._\n" }
        var table = MarkdownTable(header: ["Scenario"] + modes, alignRight: [])
        for row in rows {
            table.rows.append(["`\(row.scenario)` — \(row.summary)"] + row.verdicts.map { $0?.description ?? "—" })
        }
        return "Verdicts use \(strategies).\n\n" + table.render()
    }

    /// The matrix as a plain-text table for a terminal, with each scenario's tag.
    public func plainText() -> String {
        guard !rows.isEmpty else { return "No published or NavigationStack scenario was run.\n" }
        let header = ["scenario", "tag"] + modes
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
