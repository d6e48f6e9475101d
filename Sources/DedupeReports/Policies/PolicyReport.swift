import DedupeHarness
import DedupeLifecycle
import DedupeWorkloads
import Foundation

/// `policies.csv`, `policy-causes.csv`, `policies.md`, the fetch-latency chart and the
/// `report.md` section, all from ``PolicyResults``. See `Guides/Policies.md`.
package enum PolicyReport {
    /// The CSV columns: the failure columns of the issues' lists, then the tasks and
    /// `fetch_failures` (intents not served because a fetch failed, kept apart from
    /// `lost_navigations`).
    package static let columns = [
        "scenario", "persistence", "variant", "intents", "pushes", "duplicate_screens", "lost_navigations",
        "reprocessed_envelopes", "wrong_screens", "repushed_after_leave", "overlapping_tasks", "tasks_started", "tasks_killed",
        "fetch_failures",
    ]

    /// The chart's file name.
    package static let chartFileName = "policies-duplicates-vs-fetch-latency.svg"

    /// The long-format cause breakdown's file name.
    package static let causesFileName = "policy-causes.csv"

    /// Every file name ``files(_:formats:)`` can produce.
    package static let fileNames: Set<String> = ["policies.csv", causesFileName, "policies.md", chartFileName]

    /// One row per scenario, persistence and variant.
    ///
    /// - Complexity: O(rows).
    package static func csv(_ policies: PolicyResults) -> CSVTable {
        CSVTable(header: columns, rows: policies.rows.map { [$0.scenario, $0.persistenceID, $0.variant.rawValue] + cells($0.counts) })
    }

    static func cells(_ c: LifecycleCounts) -> [String] {
        [c.intents, c.pushes, c.duplicateScreens, c.lostNavigations, c.reprocessedEnvelopes, c.wrongScreens,
         c.repushedAfterLeave, c.overlappingTasks, c.tasksStarted, c.tasksKilled, c.fetchFailures].map(String.init)
    }

    /// The matrix as aligned plain text, for the terminal, then the fix checks, the published
    /// policy's remaining failures by cause and the kill sweep over the router's effects.
    package static func plainText(_ policies: PolicyResults) -> String {
        let header = ["scenario", "persistence", "variant", "intents", "pushes", "dup_screens", "lost", "reprocessed", "wrong",
                      "repushed", "overlap", "tasks", "killed", "fetch_fail"]
        let rows = policies.rows.map { [$0.scenario, $0.persistenceID, $0.variant.rawValue] + cells($0.counts) }
        var text = alignedText(header: header, rows: rows, leftColumns: 3, breakWhen: { previous, row in previous[0] != row[0] || previous[1] != row[1] })
        text += "\n" + fixCheckText(policies)
        text += "\n" + publishedCauseText(policies)
        let killSweep = killSweepText(policies)
        if !killSweep.isEmpty { text += "\n" + killSweep }
        return text
    }

    /// `rows` under `header`, the first `leftColumns` left-aligned, a blank line between rows
    /// where `breakWhen` says.
    static func alignedText(header: [String], rows: [[String]], leftColumns: Int, breakWhen: ([String], [String]) -> Bool) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - cells[index].count)
                return index < leftColumns ? cells[index] + padding : padding + cells[index]
            }.joined(separator: "  ") + "\n"
        }
        var text = line(header)
        var previous: [String]?
        for cells in rows {
            if let previous, breakWhen(previous, cells) { text += "\n" }
            previous = cells
            text += line(cells)
        }
        return text
    }

    /// For each switch, on the scenario built for it: its failure count with the switch in its
    /// protecting position and in the other one. For the six published switches the protecting
    /// position is `published`; for those it has off (``PolicyVariant/turnsSwitchOn``) it is the
    /// variant. A scenario of process death is checked under `after-every-consume`, the store that keeps
    /// what a consume wrote, where when it wrote matters.
    static func fixChecks(_ policies: PolicyResults) -> [FixCheck] {
        var checks: [FixCheck] = []
        func row(_ scenario: String, _ variant: PolicyVariant) -> PolicyResults.Row? {
            let rows = policies.rows.filter { $0.scenario == scenario && $0.variant == variant }
            return rows.first { $0.persistence == .afterEveryConsume } ?? rows.first
        }
        for scenario in policies.scenarios {
            guard let variant = scenario.exercises, let failure = variant.protectedFailure,
                  let on = row(scenario.id, .published), let off = row(scenario.id, variant)
            else { continue }
            let published = failure.count(in: on.counts)
            let flipped = failure.count(in: off.counts)
            checks.append(FixCheck(
                variant: variant, scenario: scenario.id, column: failure.rawValue, published: published, variantCount: flipped,
                protected: variant.turnsSwitchOn ? flipped : published, unprotected: variant.turnsSwitchOn ? published : flipped))
        }
        return checks
    }

    /// One switch's failure count on its scenario, under `published` and under the variant.
    struct FixCheck {
        var variant: PolicyVariant
        var scenario: String
        var column: String
        var published: Int
        var variantCount: Int
        /// The count with the switch protecting, and without.
        var protected: Int
        var unprotected: Int

        var verdict: String { protected == 0 && unprotected > 0 ? "fix holds" : "NOT SHOWN" }
    }

    static func fixCheckText(_ policies: PolicyResults) -> String {
        fixChecks(policies).map {
            "\($0.variant.rawValue) on \($0.scenario): \($0.column) \($0.published) published, \($0.variantCount) under the variant — "
                + $0.verdict + "\n"
        }.joined()
    }

    /// `policies.md`: the settings, the fix checks, the published policy's remaining failures,
    /// the kill sweep, the scenarios and the full matrix.
    package static func markdown(_ policies: PolicyResults, chart: Bool = true) -> String {
        var out = "# Router and NavigationStack policies\n\n"
        out += settingsLine(policies) + "\n\n"
        out += fixCheckTable(policies) + "\n"
        out += "## What the published policy still lets through\n\n" + publishedCauseMarkdown(policies) + "\n"
        out += killSweepMarkdown(policies)
        out += "## Scenarios\n\n"
        var scenarios = MarkdownTable(header: ["Scenario", "Built for", "What it models", "Left out by the conversion"], alignRight: [])
        scenarios.rows = policies.scenarios.map {
            ["`\($0.id)`", $0.exercises.map { "`\($0.rawValue)`" } ?? "", $0.summary, leftOutText($0.leftOut ?? [])]
        }
        out += scenarios.render() + "\n"
        out += "## Failures per scenario\n\n" + compactTableCaption + "\n\n" + compactTable(policies) + "\n"
        out += "## Matrix\n\n" + matrixTable(policies) + "\n"
        out += sweepText(policies, chart: chart)
        return out
    }

    static let compactTableCaption = "Duplicate screens + lost + reprocessed + wrong + repushed + overlapping tasks, per scenario and variant:"

    /// The `report.md` section, the summary: the fix checks, what the published policy lets
    /// through, the kill sweep's figures and the latency chart; the per-scenario failures, the matrix and the sweep's table
    /// are in `policies.md`. Empty when the run has no policy results.
    package static func section(_ results: RunResults, chart: Bool) -> String {
        guard let policies = results.policies else { return "" }
        var out = "## Router and NavigationStack policies\n\n"
        out += settingsLine(policies) + " Failures per scenario and the full matrix in [policies.md](policies.md); "
            + "columns in `Guides/Policies.md`.\n\n"
        out += fixCheckTable(policies) + "\n"
        out += publishedCauseSummary(policies) + "\n"
        let killSweep = killSweepSummary(policies)
        if !killSweep.isEmpty { out += killSweep + "\n" }
        out += sweepSummary(policies, chart: chart)
        return out
    }

    /// The latency sweep's heading, what it shows and its chart; the table stays in `policies.md`.
    static func sweepSummary(_ policies: PolicyResults, chart: Bool) -> String {
        guard let scenario = policies.sweepScenario else { return "" }
        return sweepIntroduction(scenario, chart: chart) + "Every point of the sweep: [policies.md](policies.md) § Fetch latency.\n\n"
    }

    /// The sweep's heading, what it shows, and its chart when `chart`.
    static func sweepIntroduction(_ scenario: String, chart: Bool) -> String {
        var out = "### Fetch latency against the consume timing\n\n"
        out += "On `\(scenario)`, the fetch median swept from 25 ms to 2 s (p99 scaled with it). "
            + "`consume-after-success+keep-in-flight` is the article's first code (both switches off); with only the "
            + "consume timing off, the cancel stops the first task, so the failure shows as reprocessing and extra tasks:\n\n"
        if chart { out += "![Duplicate screens against fetch latency](\(chartFileName))\n\n" }
        return out
    }

    static func settingsLine(_ p: PolicyResults) -> String {
        "Seed \(p.seed); router layers `\(p.window)` + `\(p.consumed)`; detail fetch log-normal, median "
            + "\(NumberText.significant(p.fetchMedianMilliseconds)) ms, p99 \(NumberText.significant(p.fetchP99Milliseconds)) ms, "
            + "failing \(NumberText.significant(p.fetchFailureRate * 100))%; checkout median "
            + "\(NumberText.significant(p.checkoutMedianMilliseconds)) ms; dwell median "
            + "\(NumberText.significant(p.dwellMedianMilliseconds / 1_000)) s"
            + (p.coldLaunchHostMedianMilliseconds.map { "; host after a relaunch median \(NumberText.significant($0)) ms" } ?? "") + "."
    }

    static func fixCheckTable(_ policies: PolicyResults) -> String {
        var table = MarkdownTable(
            header: ["Variant", "Its scenario", "Failure count", "published", "variant", "Verdict"],
            alignRight: [3, 4])
        table.rows = fixChecks(policies).map {
            ["`\($0.variant.rawValue)`", "`\($0.scenario)`", "`\($0.column)`", String($0.published), String($0.variantCount), $0.verdict]
        }
        return table.rows.isEmpty ? "_No scenario built for a switch was run._\n" : table.render()
    }

    static func matrixTable(_ policies: PolicyResults) -> String {
        var table = MarkdownTable(
            header: ["Scenario", "Persistence", "Variant", "Intents", "Pushes", "Duplicate screens", "Lost", "Reprocessed",
                     "Wrong screens", "Repushed after leave", "Overlapping tasks", "Tasks", "Killed", "Fetch failures"],
            alignRight: Set(3..<14))
        table.rows = policies.rows.map { ["`\($0.scenario)`", "`\($0.persistenceID)`", "`\($0.variant.rawValue)`"] + cells($0.counts) }
        return table.render()
    }

    static func compactTable(_ policies: PolicyResults) -> String {
        let variants = PolicyVariant.allCases.filter { variant in policies.rows.contains { $0.variant == variant } }
        var table = MarkdownTable(
            header: ["Scenario", "Persistence"] + variants.map { "`\($0.rawValue)`" }, alignRight: Set(2...max(2, variants.count + 1)))
        var seen: [(String, String)] = []
        for row in policies.rows where !seen.contains(where: { $0 == (row.scenario, row.persistenceID) }) {
            seen.append((row.scenario, row.persistenceID))
        }
        for (scenario, persistence) in seen {
            table.rows.append(["`\(scenario)`", "`\(persistence)`"] + variants.map { variant in
                guard let c = policies.rows.first(where: {
                    $0.scenario == scenario && $0.persistenceID == persistence && $0.variant == variant
                })?.counts else { return "" }
                return String(LifecycleFailure.allCases.map { $0.count(in: c) }.reduce(0, +))
            })
        }
        return table.render()
    }

    static func sweepText(_ policies: PolicyResults, chart: Bool) -> String {
        guard let scenario = policies.sweepScenario else { return "" }
        let out = sweepIntroduction(scenario, chart: chart)
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
    package static func chart(_ policies: PolicyResults) -> LineChart {
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
    package static func files(_ results: RunResults, formats: Set<ReportFormat>) -> [(name: String, data: Data)] {
        results.policies.map { files($0, formats: formats) } ?? []
    }

    /// The files for `policies` in `formats`.
    package static func files(_ policies: PolicyResults, formats: Set<ReportFormat>) -> [(name: String, data: Data)] {
        var files: [(name: String, data: Data)] = []
        if formats.contains(.csv) {
            files.append(("policies.csv", Data(csv(policies).render().utf8)))
            files.append((causesFileName, Data(causesCSV(policies).render().utf8)))
        }
        if formats.contains(.svg) { files.append((chartFileName, Data(chart(policies).svg().utf8))) }
        if formats.contains(.md) { files.append(("policies.md", Data(markdown(policies, chart: formats.contains(.svg)).utf8))) }
        return files
    }
}
