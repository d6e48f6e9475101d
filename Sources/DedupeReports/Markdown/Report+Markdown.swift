import DedupeHarness
import DedupeWorkloads

/// `report.md`: one report a reviewer reads top to bottom. The section order is fixed and
/// documented in `Guides/Reports.md`.
public enum MarkdownReport {
    /// Renders the report. `charts` are the SVG file names to embed (empty when SVG is off).
    ///
    /// - Complexity: O(cases²) for the frontier; the rest is linear.
    public static func render(_ results: RunResults, charts: [ChartReport.Chart] = [], scenarios: [Scenario] = ScenarioCatalogue.all) -> String {
        let recommendation = Recommendation.make(from: results)
        var out = "# PushDedupe Bench report\n\n"
        if results.environment.buildConfiguration != "release" {
            out += """
            > [!WARNING]
            > # ⚠️ THIS IS A \(results.environment.buildConfiguration.uppercased()) BUILD
            > Timings from a non-release build are meaningless: invariant checks are on and nothing is
            > optimized. Rebuild with `swift run -c release dedupe-bench` before reading any speed figure.


            """
        }
        out += recommendationSection(recommendation)
        out += environmentSection(results)
        out += layerSection(results)
        out += "## Mode × scenario matrix\n\n" + ScenarioMatrix.make(from: results, scenarios: scenarios).markdown() + "\n"
        out += paretoSection(results)
        out += correctnessSection(results)
        out += persistenceSection(results)
        out += memorySection(results)
        out += chartsSection(charts)
        return out
    }

    /// The recommendation in one line and the `two-layer` pipeline table: the block the README
    /// shows, written as `headline.md` so the README can be checked against the reference run.
    public static func headline(_ results: RunResults) -> String {
        let recommendation = Recommendation.make(from: results)
        var out = ""
        if let winner = recommendation.winner {
            out += "**Adopt `\(winner.window ?? "-")` + `\(winner.consumed ?? "-")`** (\(winner.parameterText))"
            if let runnerUp = recommendation.runnerUp { out += "; runner-up `\(runnerUp.label)`" }
            out += ".\n\n"
        }
        let pipelines = results.cases.filter {
            $0.mode == ReferenceStrategies.mode && $0.window != nil && $0.consumed != nil
        }
        if !pipelines.isEmpty {
            out += layerTable(ComparableCases.widest(pipelines), keepWindow: true, keepConsumed: true)
        }
        let e = results.environment
        out += "_\(e.cpuModel), \(e.coreCount) cores, \(e.buildConfiguration) build, \(e.allocator), seed \(e.seed), "
        out += "commit \(e.gitCommit). Times: geometric mean over workloads of median ns/event; × reference: "
        out += "against `\(ReferenceStrategies.window) + \(ReferenceStrategies.consumed)` in the same run._\n"
        return out
    }

    static func recommendationSection(_ recommendation: Recommendation) -> String {
        var out = "## Recommendation\n\n"
        let rule = recommendation.rule
        guard let winner = recommendation.winner else {
            out += "_No two-layer pipeline case was run, so there is no pipeline to recommend._\n\n"
            out += layerWinners(recommendation)
            return out + ruleText(rule)
        }
        out += "**Adopt `\(winner.window ?? "-")` (layer 1) with `\(winner.consumed ?? "-")` (layer 2)** "
        out += "— \(winner.parameterText).\n\n"
        out += "Why, across \(winner.workloads) workload(s) in mode `\(recommendation.mode ?? "-")`:\n\n"
        out += "- \(winner.extraFalseDrops == 0 ? "zero" : String(winner.extraFalseDrops)) false drops beyond the published code's "
            + "(\(winner.falseDrops) in all over \(winner.newEvents) wanted navigations);\n"
        out += "- \(winner.extraMissedDuplicates) missed duplicates beyond the published code's "
            + "(\(NumberText.percent(winner.extraMissedDuplicateRate)) of \(winner.dupEvents) duplicates; budget "
            + "\(NumberText.percent(rule.missedDuplicateBudget))), \(winner.missedDuplicates) in all;\n"
        if let bytes = winner.memoryBytes { out += "- memory \(NumberText.bytes(bytes)) at most;\n" }
        if let ns = winner.nanosecondsPerEvent {
            out += "- \(NumberText.significant(ns)) ns/event"
            if let ratio = winner.ratioToReference { out += ", \(NumberText.fixed(ratio, 2))× the published code's time" }
            out += ".\n"
        }
        out += "\n"
        if let runnerUp = recommendation.runnerUp {
            out += "**Runner-up:** `\(runnerUp.label)` (\(Recommendation.describe(runnerUp)), "
                + "\(runnerUp.extraFalseDrops) false drops beyond the published code's).\n\n"
        }
        if !recommendation.wouldChange.isEmpty {
            out += "**When the answer would change:**\n\n"
            out += recommendation.wouldChange.map { "- \($0)\n" }.joined() + "\n"
        }
        out += layerWinners(recommendation)
        return out + ruleText(rule)
    }

    static func layerWinners(_ recommendation: Recommendation) -> String {
        var out = ""
        if let window = recommendation.windowWinner {
            out += "- Best layer-1 window on its own: `\(window.label)` (\(Recommendation.describe(window))).\n"
        }
        if let consumed = recommendation.consumedWinner {
            out += "- Best layer-2 consumed set on its own: `\(consumed.label)` (\(Recommendation.describe(consumed))).\n"
        }
        return out.isEmpty ? out : out + "\n"
    }

    static func ruleText(_ rule: RecommendationRule) -> String {
        """
        _Decision rule:_ zero false drops first (a lost navigation is worse than a duplicate \
        screen), then the missed-duplicate budget (\(NumberText.percent(rule.missedDuplicateBudget)) of \
        duplicate events), then memory (within \(NumberText.percent(rule.memoryTolerance - 1)) of the \
        smallest counts as a tie), then speed (geometric mean of median ns/event over workloads). \
        False drops and misses count beyond the published code's (`seed-literal` + `set`) on the \
        same workload: every window of a given length drops the same in-window re-taps by design, \
        and the window length, not the data structure, decides those.


        """
    }

    static func environmentSection(_ results: RunResults) -> String {
        let e = results.environment
        let s = results.settings
        var table = MarkdownTable(header: ["", ""], alignRight: [])
        table.rows = [
            ["Toolchain", e.toolchain], ["OS", e.operatingSystem], ["CPU", "\(e.cpuModel) (\(e.coreCount) cores)"],
            ["Allocator", e.allocator], ["Build", e.buildConfiguration], ["Git commit", e.gitCommit],
            ["Date", e.date], ["Seed", String(e.seed)],
            ["Clock resolution", "\(NumberText.significant(e.clockResolutionNanoseconds)) ns"],
            ["Harness overhead", "\(NumberText.significant(e.harnessOverheadNanosecondsPerEvent)) ns/event"],
        ]
        if let read = e.clockReadNanoseconds { table.rows.append(["Clock read", "\(NumberText.significant(read)) ns"]) }
        if let batch = e.latencyBatchSize, let overhead = e.latencyTimingOverheadNanosecondsPerEvent {
            table.rows.append(["Latency timing", "batches of \(batch) events, \(NumberText.significant(overhead)) ns/event added"])
        }
        if let allocations = e.harnessAllocationsPerEvent {
            table.rows.append(["Harness allocations", "\(NumberText.significant(allocations)) per event"])
        }
        if let seconds = e.runSeconds { table.rows.append(["Run time", "\(NumberText.significant(seconds)) s"]) }
        table.rows += [
            ["Repetitions", String(s.repetitions) + (s.quick ? " (quick)" : "")],
            ["Window", "\(NumberText.significant(s.windowMilliseconds)) ms"],
            ["Filters", s.filters.isEmpty ? "none" : s.filters.map { "`\($0)`" }.joined(separator: ", ")],
        ]
        if let trace = s.traceFile { table.rows.append(["Trace", "`\(trace)`"]) }
        return "## Environment\n\n" + table.render() + "\n"
    }

    static func layerSection(_ results: RunResults) -> String {
        var out = "## Per-layer comparison\n\n"
        out += "Times are the geometric mean over workloads of each case's median ns/event (ns per admit for "
        out += "windows alone); ratios are the geometric mean over workloads of the median per-repetition ratio to "
        out += "the reference timed in the same repetition (`\(ReferenceStrategies.window)` for windows, "
        out += "`\(ReferenceStrategies.consumed)` for consumed sets, the `two-layer` `\(ReferenceStrategies.window) + "
        out += "\(ReferenceStrategies.consumed)` for every pipeline mode; below 1 is faster).\n\n"
        let sections: [(String, String, Bool, Bool)] = [
            ("Layer 1: windows alone", ReferenceStrategies.windowAloneMode, true, false),
            ("Layer 2: consumed sets alone", ReferenceStrategies.consumedAloneMode, false, true),
            ("Pipelines (`two-layer`)", ReferenceStrategies.mode, true, true),
            ("Pipelines (`two-layer-guarded`)", "two-layer-guarded", true, true),
        ]
        for (title, mode, keepWindow, keepConsumed) in sections {
            let cases = results.cases.filter { $0.mode == mode }
            guard !cases.isEmpty else { continue }
            out += "### \(title)\n\n"
            let widest = ComparableCases.widest(cases, window: keepWindow, consumed: keepConsumed)
            out += layerTable(widest, keepWindow: keepWindow, keepConsumed: keepConsumed)
            if widest.count < cases.count {
                let common = ComparableCases.common(cases, window: keepWindow, consumed: keepConsumed)
                if !common.cases.isEmpty {
                    out += "Every combination, on the workloads all of them ran on ("
                    out += common.workloads.map { "`\($0)`" }.joined(separator: ", ") + "):\n\n"
                    out += layerTable(common.cases, keepWindow: keepWindow, keepConsumed: keepConsumed)
                }
            }
        }
        return out
    }

    /// One row per candidate; every row covers the same workloads, so the sums compare.
    static func layerTable(_ cases: [CaseResult], keepWindow: Bool, keepConsumed: Bool) -> String {
        var table = MarkdownTable(
            header: ["Strategy", "Parameters", "Workloads", "ns/event", "× reference", "False drops (beyond reference)",
                     "Missed dups (beyond reference)", "Memory"],
            alignRight: [2, 3, 4, 5, 6, 7])
        for candidate in Candidate.aggregate(cases, window: keepWindow, consumed: keepConsumed) {
            // The harness's per-repetition ratios to the reference row, as in the CSV.
            let ratio = candidate.ratioToReference
            table.rows.append([
                "`\(candidate.label)`", candidate.parameterText, String(candidate.workloads),
                candidate.nanosecondsPerEvent.map(NumberText.significant) ?? "—",
                ratio.map { NumberText.fixed($0, 2) } ?? "—",
                "\(candidate.falseDrops) (\(candidate.extraFalseDrops))",
                "\(candidate.missedDuplicates) (\(candidate.extraMissedDuplicates))",
                candidate.memoryBytes.map(NumberText.bytes) ?? "—",
            ])
        }
        return table.render() + "\n"
    }

    static func paretoSection(_ results: RunResults) -> String {
        var out = "## Pareto frontier\n\n"
        out += "Strategies no other strategy matches or beats on every axis at once (all axes: lower is better).\n\n"
        let windows = Candidate.aggregate(ComparableCases.widest(
            results.cases.filter { $0.mode == ReferenceStrategies.windowAloneMode && $0.window != nil }, consumed: false),
            consumed: false)
        let consumed = Candidate.aggregate(ComparableCases.widest(
            results.cases.filter { $0.mode == ReferenceStrategies.consumedAloneMode && $0.consumed != nil }, window: false),
            window: false)
        let pipelines = Candidate.aggregate(ComparableCases.widest(
            results.cases.filter { $0.mode == ReferenceStrategies.mode && $0.window != nil && $0.consumed != nil }))
        let groups: [(String, [Candidate], [(Candidate) -> Double?], [String])] = [
            ("Windows: speed vs missed duplicates vs false drops", windows,
             [\.nanosecondsPerEvent, { Double($0.missedDuplicates) }, { Double($0.falseDrops) }],
             ["ns/event", "Missed dups", "False drops"]),
            ("Consumed sets: memory vs missed duplicates vs false drops vs speed", consumed,
             [\.memoryBytes, { Double($0.missedDuplicates) }, { Double($0.falseDrops) }, \.nanosecondsPerEvent],
             ["Memory", "Missed dups", "False drops", "ns/event"]),
            ("Pipelines: memory vs missed duplicates vs false drops vs speed", pipelines,
             [\.memoryBytes, { Double($0.missedDuplicates) }, { Double($0.falseDrops) }, \.nanosecondsPerEvent],
             ["Memory", "Missed dups", "False drops", "ns/event"]),
        ]
        var any = false
        for (title, candidates, objectives, names) in groups where !candidates.isEmpty {
            any = true
            let frontier = ParetoFrontier.frontier(candidates, objectives: objectives)
            out += "### \(title)\n\n"
            guard !frontier.isEmpty else {
                out += "_Not every axis was measured._\n\n"
                continue
            }
            var table = MarkdownTable(header: ["Strategy", "Parameters"] + names, alignRight: Set(2..<(2 + names.count)))
            for candidate in frontier {
                table.rows.append(["`\(candidate.label)`", candidate.parameterText] + objectives.enumerated().map { index, objective in
                    let value = objective(candidate) ?? 0
                    return names[index] == "Memory" ? NumberText.bytes(value)
                        : names[index] == "ns/event" ? NumberText.significant(value) : String(Int(value))
                })
            }
            out += table.render() + "\n"
        }
        return any ? out : out + "_No layer or pipeline cases were run._\n\n"
    }

    static func correctnessSection(_ results: RunResults) -> String {
        var out = "## Correctness\n\n"
        out += "Rates with 95% Wilson intervals. Suppressions: by the window (L1), the consumed set (L2) and the "
        out += "navigation guard. Skipped emits are emits of envelopes whose payload was suppressed.\n\n"
        var table = MarkdownTable(
            header: ["Workload", "Mode", "Strategy", "Events", "False drops", "Missed duplicates", "Skipped emits",
                     "Dup screens", "Lost navs", "L1 / L2 / guard", "Evictions L1 / L2", "Filter FP (theory / measured)"],
            alignRight: [3, 4, 5, 6, 7, 8])
        for result in results.cases {
            guard let c = result.correctness else { continue }
            let filter = c.theoreticalFalsePositiveRate == nil && c.measuredFalsePositiveRate == nil ? "—"
                : "\(c.theoreticalFalsePositiveRate.map(NumberText.percent) ?? "—") / \(c.measuredFalsePositiveRate.map(NumberText.percent) ?? "—")"
            table.rows.append([
                "`\(result.workload)`", result.mode, "`\(result.strategyLabel)`", String(c.events),
                rateText(c.falseDropRate), rateText(c.missedDuplicateRate), String(c.skippedEmits),
                String(c.duplicateScreens), String(c.lostNavigations),
                "\(c.suppressedByWindow) / \(c.suppressedByConsumedSet) / \(c.suppressedByGuard)",
                "\(c.windowEvictions) / \(c.consumedEvictions)", filter,
            ])
        }
        return out + (table.rows.isEmpty ? "_No case was scored._\n" : table.render()) + "\n"
    }

    /// `3 / 120 = 2.50% [0.85%, 7.1%]`.
    static func rateText(_ rate: Rate) -> String {
        "\(rate.count) / \(rate.total) = \(NumberText.percent(rate.value)) [\(NumberText.percent(rate.lower95)), \(NumberText.percent(rate.upper95))]"
    }

    static func memorySection(_ results: RunResults) -> String {
        var out = "## Memory\n\n"
        out += "Measured bytes come from the allocator named in *Source*; the footprint is the strategy's own "
        out += "structural estimate, shown beside it.\n\n"
        var table = MarkdownTable(
            header: ["Workload", "Mode", "Strategy", "Source", "Live", "Peak", "Footprint", "Entries", "Bytes/entry", "Allocs/event"],
            alignRight: [4, 5, 6, 7, 8, 9])
        for result in results.cases {
            guard let m = result.memory else { continue }
            table.rows.append([
                "`\(result.workload)`", result.mode, "`\(result.strategyLabel)`", m.source,
                m.liveBytes.map { NumberText.bytes(Double($0)) } ?? "—",
                m.peakBytes.map { NumberText.bytes(Double($0)) } ?? "—",
                NumberText.bytes(Double(m.footprintBytes)), String(m.retainedEntries),
                m.bytesPerEntry.map(NumberText.significant) ?? "—",
                m.allocationsPerEvent.map(NumberText.significant) ?? "—",
            ])
        }
        return out + (table.rows.isEmpty ? "_Memory was not measured._\n" : table.render()) + "\n"
    }

    static func chartsSection(_ charts: [ChartReport.Chart]) -> String {
        var out = "## Charts\n\n"
        guard !charts.isEmpty else { return out + "_Charts were not written (`--format` without `svg`)._\n" }
        for chart in charts {
            out += "### \(chart.caption)\n\n![\(chart.caption)](\(chart.fileName))\n\n"
        }
        return out
    }
}

extension Candidate {
    /// The parameters this candidate's strategies read.
    var parameterText: String {
        CaseResult(workload: "", mode: "", window: window, consumed: consumed, parameters: parameters,
                   timing: nil, memory: nil, correctness: nil).parameterSummary
    }
}
