import DedupeHarness
import Foundation

/// `policies.csv`, `policies.md`, the fetch-latency chart and the `report.md` section, all from
/// ``PolicyResults``. See `Guides/Policies.md`.
public enum PolicyReport {
    /// The CSV columns: the issue's list, then `fetch_failures` (intents not served because a
    /// fetch failed, kept apart from `lost_navigations`).
    public static let columns = [
        "scenario", "variant", "intents", "pushes", "duplicate_screens", "lost_navigations", "reprocessed_envelopes",
        "wrong_screens", "repushed_after_leave", "tasks_started", "fetch_failures",
    ]

    /// The chart's file name.
    public static let chartFileName = "policies-duplicates-vs-fetch-latency.svg"

    /// Every file name ``files(_:formats:)`` can produce.
    public static let fileNames: Set<String> = ["policies.csv", "policies.md", chartFileName]

    /// One row per scenario and variant.
    ///
    /// - Complexity: O(rows).
    public static func csv(_ policies: PolicyResults) -> CSVTable {
        CSVTable(header: columns, rows: policies.rows.map { [$0.scenario, $0.variant] + cells($0.counts) })
    }

    static func cells(_ c: LifecycleCounts) -> [String] {
        [c.intents, c.pushes, c.duplicateScreens, c.lostNavigations, c.reprocessedEnvelopes, c.wrongScreens,
         c.repushedAfterLeave, c.tasksStarted, c.fetchFailures].map(String.init)
    }

    /// The matrix as aligned plain text, for the terminal.
    public static func plainText(_ policies: PolicyResults) -> String {
        let header = ["scenario", "variant", "intents", "pushes", "dup_screens", "lost", "reprocessed", "wrong",
                      "repushed", "tasks", "fetch_fail"]
        let rows = policies.rows.map { [$0.scenario, $0.variant] + cells($0.counts) }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return index < 2 ? cells[index] + padding : padding + cells[index]
            }.joined(separator: "  ") + "\n"
        }
        var text = line(header)
        var previous: String?
        for (row, cells) in zip(policies.rows, rows) {
            if let previous, previous != row.scenario { text += "\n" }
            previous = row.scenario
            text += line(cells)
        }
        text += "\n" + fixCheckText(policies)
        return text
    }

    /// For each switch, on the scenario built for it: its failure count under `published` and
    /// under the variant.
    static func fixChecks(_ policies: PolicyResults) -> [FixCheck] {
        var checks: [FixCheck] = []
        for scenario in policies.scenarios {
            guard let id = scenario.exercises, let variant = PolicyVariant(rawValue: id), let column = variant.failureColumn,
                  let on = policies.rows.first(where: { $0.scenario == scenario.id && $0.variant == PolicyVariant.published.rawValue }),
                  let off = policies.rows.first(where: { $0.scenario == scenario.id && $0.variant == id }),
                  let published = variant.failureCount(on.counts), let turnedOff = variant.failureCount(off.counts)
            else { continue }
            checks.append(FixCheck(variant: id, scenario: scenario.id, column: column, published: published, switchedOff: turnedOff))
        }
        return checks
    }

    /// One switch's failure count on its scenario, with the switch on and off.
    struct FixCheck {
        var variant: String
        var scenario: String
        var column: String
        var published: Int
        var switchedOff: Int
    }

    static func verdict(published: Int, variant: Int) -> String {
        published == 0 && variant > 0 ? "fix holds" : "NOT SHOWN"
    }

    static func fixCheckText(_ policies: PolicyResults) -> String {
        fixChecks(policies).map {
            "\($0.variant) on \($0.scenario): \($0.column) \($0.published) published, \($0.switchedOff) switched off — "
                + verdict(published: $0.published, variant: $0.switchedOff) + "\n"
        }.joined()
    }

    /// `policies.md`: the settings, the fix checks, the scenarios and the full matrix.
    public static func markdown(_ policies: PolicyResults, chart: Bool = true) -> String {
        var out = "# Router and NavigationStack policies\n\n"
        out += settingsLine(policies) + "\n\n"
        out += fixCheckTable(policies) + "\n"
        out += "## Scenarios\n\n"
        var scenarios = MarkdownTable(header: ["Scenario", "Built for", "What it models"], alignRight: [])
        scenarios.rows = policies.scenarios.map { ["`\($0.id)`", $0.exercises.map { "`\($0)`" } ?? "", $0.summary] }
        out += scenarios.render() + "\n"
        out += "## Matrix\n\n" + matrixTable(policies) + "\n"
        out += sweepText(policies, chart: chart)
        return out
    }

    /// The `report.md` section; empty when the run has no policy results.
    public static func section(_ results: RunResults, chart: Bool) -> String {
        guard let policies = results.policies else { return "" }
        var out = "## Router and NavigationStack policies\n\n"
        out += settingsLine(policies) + " Full matrix in [policies.md](policies.md); columns in `Guides/Policies.md`.\n\n"
        out += fixCheckTable(policies) + "\n"
        out += "Failures per scenario (duplicate screens + lost + reprocessed + wrong + repushed):\n\n"
        out += compactTable(policies) + "\n"
        out += sweepText(policies, chart: chart)
        return out
    }

    static func settingsLine(_ p: PolicyResults) -> String {
        "Seed \(p.seed); router layers `\(p.window)` + `\(p.consumed)`; detail fetch log-normal, median "
            + "\(NumberText.significant(p.fetchMedianMilliseconds)) ms, p99 \(NumberText.significant(p.fetchP99Milliseconds)) ms, "
            + "failing \(NumberText.significant(p.fetchFailureRate * 100))%; checkout median "
            + "\(NumberText.significant(p.checkoutMedianMilliseconds)) ms; dwell median "
            + "\(NumberText.significant(p.dwellMedianMilliseconds / 1_000)) s."
    }

    static func fixCheckTable(_ policies: PolicyResults) -> String {
        var table = MarkdownTable(
            header: ["Switch off", "Its scenario", "Failure count", "published", "switched off", "Verdict"],
            alignRight: [3, 4])
        table.rows = fixChecks(policies).map {
            ["`\($0.variant)`", "`\($0.scenario)`", "`\($0.column)`", String($0.published), String($0.switchedOff),
             verdict(published: $0.published, variant: $0.switchedOff)]
        }
        return table.rows.isEmpty ? "_No scenario built for a switch was run._\n" : table.render()
    }

    static func matrixTable(_ policies: PolicyResults) -> String {
        var table = MarkdownTable(
            header: ["Scenario", "Variant", "Intents", "Pushes", "Duplicate screens", "Lost", "Reprocessed", "Wrong screens",
                     "Repushed after leave", "Tasks", "Fetch failures"],
            alignRight: Set(2..<11))
        table.rows = policies.rows.map { ["`\($0.scenario)`", "`\($0.variant)`"] + cells($0.counts) }
        return table.render()
    }

    static func compactTable(_ policies: PolicyResults) -> String {
        let variants = PolicyVariant.allCases.map(\.rawValue).filter { id in policies.rows.contains { $0.variant == id } }
        var table = MarkdownTable(header: ["Scenario"] + variants.map { "`\($0)`" }, alignRight: Set(1...max(1, variants.count)))
        for scenario in policies.scenarios {
            table.rows.append(["`\(scenario.id)`"] + variants.map { variant in
                guard let c = policies.rows.first(where: { $0.scenario == scenario.id && $0.variant == variant })?.counts else { return "" }
                return String(c.duplicateScreens + c.lostNavigations + c.reprocessedEnvelopes + c.wrongScreens + c.repushedAfterLeave)
            })
        }
        return table.render()
    }

    static func sweepText(_ policies: PolicyResults, chart: Bool) -> String {
        guard let scenario = policies.sweepScenario else { return "" }
        var out = "### Fetch latency against the consume timing\n\n"
        out += "On `\(scenario)`, the fetch median swept from 25 ms to 2 s (p99 scaled with it). "
            + "`consume-after-success+keep-in-flight` is the article's first code (both switches off); with only the "
            + "consume timing off, the cancel stops the first task, so the failure shows as reprocessing and extra tasks:\n\n"
        if chart { out += "![Duplicate screens against fetch latency](\(chartFileName))\n\n" }
        let policiesInOrder = policies.sweep.reduce(into: [String]()) { if !$0.contains($1.policy) { $0.append($1.policy) } }
        var table = MarkdownTable(
            header: ["Fetch median (ms)"] + policiesInOrder.flatMap { ["`\($0)` duplicates", "reprocessed", "tasks"] },
            alignRight: Set(0...(3 * policiesInOrder.count)))
        let medians = policies.sweep.reduce(into: [Double]()) { if !$0.contains($1.fetchMedianMilliseconds) { $0.append($1.fetchMedianMilliseconds) } }
        for median in medians {
            var row = [NumberText.significant(median)]
            for policy in policiesInOrder {
                let point = policies.sweep.first { $0.fetchMedianMilliseconds == median && $0.policy == policy }
                row += [point?.duplicateScreens, point?.reprocessedEnvelopes, point?.tasksStarted].map { $0.map(String.init) ?? "" }
            }
            table.rows.append(row)
        }
        return out + table.render() + "\n"
    }

    /// Duplicate screens (and reprocessed envelopes for the single switch) against the fetch median.
    public static func chart(_ policies: PolicyResults) -> LineChart {
        let names = policies.sweep.reduce(into: [String]()) { if !$0.contains($1.policy) { $0.append($1.policy) } }
        var series = names.map { name in
            LineChart.Series(name: "\(legendName(name)): duplicates", points: policies.sweep.filter { $0.policy == name }
                .map { (x: $0.fetchMedianMilliseconds, y: Double($0.duplicateScreens)) })
        }
        if let first = names.first {
            series.append(LineChart.Series(name: "\(legendName(first)): reprocessed", points: policies.sweep.filter { $0.policy == first }
                .map { (x: $0.fetchMedianMilliseconds, y: Double($0.reprocessedEnvelopes)) }))
        }
        return LineChart(
            title: "Duplicate screens vs fetch latency (\(policies.sweepScenario ?? "no sweep"))",
            xLabel: "detail fetch median (ms)", yLabel: "count over the scenario's episodes", logX: true, logY: false,
            series: series)
    }

    /// Sweep policy names short enough for the legend.
    static func legendName(_ policy: String) -> String {
        switch policy {
        case "consume-after-success+keep-in-flight": return "article's first code"
        case PolicyVariant.consumeAfterSuccess.rawValue: return "after-success"
        default: return policy
        }
    }

    /// The files a run writes for its policy results: none when it has none.
    public static func files(_ results: RunResults, formats: Set<ReportFormat>) -> [(name: String, data: Data)] {
        results.policies.map { files($0, formats: formats) } ?? []
    }

    /// The files for `policies` in `formats`.
    public static func files(_ policies: PolicyResults, formats: Set<ReportFormat>) -> [(name: String, data: Data)] {
        var files: [(name: String, data: Data)] = []
        if formats.contains(.csv) { files.append(("policies.csv", Data(csv(policies).render().utf8))) }
        if formats.contains(.svg) { files.append((chartFileName, Data(chart(policies).svg().utf8))) }
        if formats.contains(.md) { files.append(("policies.md", Data(markdown(policies, chart: formats.contains(.svg)).utf8))) }
        return files
    }
}
