import DedupeHarness

extension MarkdownReport {
    static func recommendationSection(_ recommendation: Recommendation, charts: [ChartReport.Chart]) -> String {
        var out = "## Recommendation\n\n"
        let rule = recommendation.rule
        if let winner = recommendation.winner {
            out += "**Adopt `\(winner.window ?? "-")` (layer 1) with `\(winner.consumed ?? "-")` (layer 2)** — "
            out += "\(winner.parameterText).\n\n"
            out += "Why, by the rule below, in mode `\(recommendation.mode ?? "-")` over the \(recommendation.deviceWorkloads.count) "
            out += "device workload(s):\n\n"
            out += "1. **Guarantee:** \(winner.guaranteeText), declared by the types: "
            out += winner.guaranteeClasses.contains("may-drop") ? "it can drop a wanted navigation (allowed by --allow-probabilistic).\n"
                : "it never drops a wanted navigation by construction.\n"
            if let profile = recommendation.profile {
                out += "2. **Horizon:** it remembers every id for the longest replay (\(NumberText.significant(profile.longestReplayMilliseconds / 1_000)) s, "
                out += "\(profile.peakEnvelopesInLongestReplay) envelope(s) at the peak) and every fingerprint for its whole window.\n"
            }
            if let bytes = winner.memoryBytes {
                out += "3. **Memory:** \(NumberText.bytes(bytes)) peak" + (winner.memoryWorkload.map { " on `\($0)`" } ?? "")
                out += ", under the \(NumberText.bytes(rule.memoryBudgetBytes)) budget.\n"
            } else {
                out += "3. **Memory:** not measured, so not held against it.\n"
            }
            out += "4. **Speed:** \(winner.nanosecondsPerEvent.map { NumberText.significant($0) + " ns/event" } ?? "not timed")"
            if let ratio = winner.ratioToReference { out += ", \(NumberText.fixed(ratio, 2))× the published code's time (lower is faster)" }
            out += ".\n\n"
            out += "On the device workloads it newly drops \(winner.newlyDropped) and newly misses \(winner.newlyMissed) "
            out += "event(s) against the published code (matched event by event; it recovers \(winner.recoveredNavigations) "
            out += "navigation(s) and blocks \(winner.newlyBlockedDuplicates) more duplicate(s)).\n\n"
            if let runnerUp = recommendation.runnerUp {
                out += "**Runner-up:** `\(runnerUp.label)` (\(runnerUp.guaranteeText); \(Recommendation.describe(runnerUp))).\n\n"
            }
        } else {
            out += "_No pipeline to adopt: \(recommendation.noWinnerReason ?? "no two-layer pipeline case was run").._\n\n"
        }
        if !recommendation.wouldChange.isEmpty {
            out += "**What would change the answer:**\n\n"
            out += recommendation.wouldChange.map { "- \($0)\n" }.joined() + "\n"
        }
        if let window = recommendation.windowWinner {
            out += "- Best layer-1 window on its own: `\(window.label)` (\(window.guaranteeText); \(Recommendation.describe(window))).\n"
        }
        if let consumed = recommendation.consumedWinner {
            out += "- Best layer-2 consumed set on its own: `\(consumed.label)` (\(consumed.guaranteeText); \(Recommendation.describe(consumed))).\n"
        }
        if recommendation.windowWinner != nil || recommendation.consumedWinner != nil { out += "\n" }
        out += windowLengthText(recommendation, charts: charts)
        out += ruleText(rule)
        out += assessmentTable(recommendation)
        return out
    }

    static func windowLengthText(_ recommendation: Recommendation, charts: [ChartReport.Chart]) -> String {
        guard let choice = recommendation.windowLength, let chosen = choice.points.first(where: { $0.milliseconds == choice.milliseconds })
        else { return "" }
        var out = "**Window length:** \(NumberText.significant(choice.milliseconds)) ms — it minimises "
        out += "\(NumberText.significant(choice.dropWeight)) × false drops + missed duplicates of `\(choice.strategy)` + "
        out += "`\(ReferenceStrategies.consumed)` summed over the device workloads (\(chosen.falseDrops) false drops, "
        out += "\(chosen.missedDuplicates) missed duplicates; `--drop-weight` sets the weight).\n\n"
        var table = MarkdownTable(header: ["Window (ms)", "False drops", "Missed dups", "Weighted cost"], alignRight: [0, 1, 2, 3])
        for point in choice.points {
            let mark = point.milliseconds == choice.milliseconds ? " ◀" : ""
            table.rows.append([
                NumberText.significant(point.milliseconds) + mark, String(point.falseDrops), String(point.missedDuplicates),
                NumberText.significant(choice.cost(point)),
            ])
        }
        out += table.render() + "\n"
        if let chart = charts.first(where: { $0.fileName == ChartReport.windowChoiceFileName }) {
            out += "![\(chart.caption)](\(chart.fileName))\n\n"
        }
        return out
    }

    static func ruleText(_ rule: RecommendationRule) -> String {
        var out = "_Decision rule, in order:_ (1) **guarantee** — a `may-drop` strategy is excluded"
        out += rule.allowProbabilistic ? " unless allowed, and this run allowed it (`--allow-probabilistic`)" : " unless `--allow-probabilistic` is given"
        out += " (a lost navigation is worse than a duplicate screen, and a probabilistic drop cannot be reproduced); "
        out += "(2) **horizon** — by its declared guarantee and parameters, the consumed set remembers every id for the device "
        out += "profile's longest replay at its peak rate, and the window every fingerprint for its whole length; "
        out += "(3) **memory** — peak live bytes on the largest workload under the \(NumberText.bytes(rule.memoryBudgetBytes)) budget "
        out += "(`--memory-budget`), everything under it tying; "
        out += "(4) **speed** — geometric mean of median ns/event over the device workloads; within "
        out += "\(NumberText.percent(RecommendationRule.speedTieTolerance)) of the fastest is a tie, broken by the stronger guarantee, "
        out += "then fewer matched errors (\(NumberText.significant(rule.dropWeight)) × newly dropped + newly missed), then less memory, "
        out += "then the name. Errors are matched event by event against `\(ReferenceStrategies.window) + \(ReferenceStrategies.consumed)`; "
        out += "nothing is netted. Stress workloads do not decide (§ Robustness).\n\n"
        return out
    }

    static func assessmentTable(_ recommendation: Recommendation) -> String {
        guard !recommendation.assessments.isEmpty else { return "" }
        var table = MarkdownTable(
            header: ["Rank", "Pipeline", "Guarantee", "Verdict", "ns/event", "Peak memory", "Newly dropped", "Newly missed"],
            alignRight: [0, 4, 5, 6, 7])
        for (index, assessment) in recommendation.assessments.enumerated() {
            let c = assessment.candidate
            let verdict = assessment.excludedBy.map { "excluded at step \($0.rawValue): \(assessment.reason ?? "")" } ?? "passes 1–3"
            table.rows.append([
                String(index + 1), "`\(c.label)`", c.guaranteeText, verdict,
                c.nanosecondsPerEvent.map(NumberText.significant) ?? "—", c.memoryBytes.map(NumberText.bytes) ?? "—",
                String(c.newlyDropped), String(c.newlyMissed),
            ])
        }
        return "Every pipeline, as the rule ranks it:\n\n" + table.render() + "\n"
    }

    static func profileSection(_ results: RunResults) -> String {
        guard let profile = results.deviceProfile else { return "" }
        var out = "## Device profile and sizing\n\n"
        out += "Measured on \(profile.workloads.map { "`\($0)`" }.joined(separator: ", ")); every case is built with the sizing "
        out += "below unless a sweep varies a parameter. Safety factor \(NumberText.significant(profile.safetyFactor)) (`--safety-factor`).\n\n"
        var table = MarkdownTable(header: ["Profile", "Value", "Sizing", "Value"], alignRight: [1, 3])
        let sizing = profile.sizing
        table.rows = [
            ["Longest replay (creation to last emit)", "\(NumberText.significant(profile.longestReplayMilliseconds)) ms",
             "Retention = longest replay × factor", "\(NumberText.significant(sizing.retentionMilliseconds / 1_000)) s"],
            ["Most envelopes within the longest replay", String(profile.peakEnvelopesInLongestReplay),
             "Consumed capacity = that × factor", String(sizing.consumedCapacity)],
            ["Most payloads within one \(NumberText.significant(profile.windowMilliseconds)) ms window", String(profile.peakPayloadsInWindow),
             "Window capacity = that × factor", String(sizing.windowCapacity)],
            ["Peak ids per second", String(profile.peakIdsPerSecond),
             "Filter rate = capacity / retention", "\(NumberText.significant(sizing.expectedRatePerSecond)) ids/s"],
            ["", "", "Target false-positive rate", NumberText.percent(sizing.falsePositiveRate)],
        ]
        out += table.render() + "\n"
        var delays = MarkdownTable(header: ["Delay (ms)", "Count", "p50", "p90", "p99", "Max"], alignRight: [1, 2, 3, 4, 5])
        for (name, d) in [("Replays after creation", profile.replayDelays), ("Wanted re-taps after the same route", profile.wantedRetapDelays),
                          ("Duplicate payloads after the same route", profile.duplicatePayloadDelays)] {
            delays.rows.append([name, String(d.count)] + [d.p50, d.p90, d.p99, d.max].map(NumberText.significant))
        }
        return out + delays.render() + "\n"
    }

    /// One row per strategy: its declared guarantee and the parameters it reads, with the values
    /// it ran with.
    static func strategiesSection(_ results: RunResults) -> String {
        var seen: [String] = []
        var table = MarkdownTable(header: ["Strategy", "Layer", "Guarantee", "Parameters it reads"], alignRight: [])
        for result in results.cases {
            if let window = result.window, !seen.contains("w:" + window) {
                seen.append("w:" + window)
                table.rows.append(["`\(window)`", "1 (window)", result.windowGuarantee?.text ?? "undeclared",
                                   (result.windowReads ?? []).map { $0.text(result.parameters) }.joined(separator: ", ")])
            }
            if let consumed = result.consumed, !seen.contains("c:" + consumed) {
                seen.append("c:" + consumed)
                table.rows.append(["`\(consumed)`", "2 (consumed set)", result.consumedGuarantee?.text ?? "undeclared",
                                   (result.consumedReads ?? []).map { $0.text(result.parameters) }.joined(separator: ", ")])
            }
        }
        guard !table.rows.isEmpty else { return "" }
        return "## Strategies\n\nEach strategy's guarantee is declared by its type; the parameters are the ones its "
            + "registration declares it reads, at the values of the run (sweeps vary them).\n\n" + table.render() + "\n"
    }

    /// What breaks first under traffic beyond one device, and where: every pipeline's matched
    /// errors on each stress workload, at the device sizing.
    static func robustnessSection(_ results: RunResults) -> String {
        let stress = (results.workloads ?? []).filter { $0.tag == "stress" }
        guard !stress.isEmpty else { return "" }
        let pipelines = ComparableCases.widest(results.cases.filter {
            $0.mode == ReferenceStrategies.mode && $0.window != nil && $0.consumed != nil
        })
        var out = "## Robustness (stress workloads)\n\n"
        out += "The same pipelines at the device sizing on traffic beyond one device; these figures do not decide. "
        out += "Cells: newly dropped / newly missed against `\(ReferenceStrategies.window) + \(ReferenceStrategies.consumed)`, "
        out += "matched event by event.\n\n"
        var table = MarkdownTable(header: ["Pipeline"] + stress.map { "`\($0.id)`" }, alignRight: Set(1...stress.count))
        // One row per pipeline (strategies, parameters, persistence), in first-seen order.
        func samePipeline(_ a: CaseResult, _ b: CaseResult) -> Bool {
            a.window == b.window && a.consumed == b.consumed && a.parameters == b.parameters
                && a.isSnapshotPersistence == b.isSnapshotPersistence
        }
        var rows: [CaseResult] = []
        for result in pipelines where !rows.contains(where: { samePipeline($0, result) }) { rows.append(result) }
        for row in rows {
            let name = CaseLabel.text(
                window: row.window, consumed: row.consumed, parameters: row.parameters, snapshot: row.isSnapshotPersistence,
                separator: " + ")
            table.rows.append(["`\(name)`"] + stress.map { workload in
                guard let matched = pipelines.first(where: { samePipeline($0, row) && $0.workload == workload.id })?.correctness?.matched
                else { return "—" }
                return "\(matched.newlyDropped) / \(matched.newlyMissed)"
            })
        }
        out += table.render() + "\n"
        for workload in stress {
            let cases = pipelines.filter { $0.workload == workload.id }
            let worst = cases.compactMap { c in c.correctness?.matched.map { (c.strategyLabel, $0) } }
                .filter { $0.1.newlyDropped + $0.1.newlyMissed > 0 }
                .sorted { ($0.1.newlyDropped, $0.1.newlyMissed) > ($1.1.newlyDropped, $1.1.newlyMissed) }
            let needs = workload.profile.sizing
            out += "- `\(workload.id)` would need capacity \(needs.consumedCapacity) and retention "
            out += "\(NumberText.significant(needs.retentionMilliseconds / 1_000)) s at this factor"
            if let first = worst.first {
                out += "; first to break: `\(first.0)` (\(first.1.newlyDropped) newly dropped, \(first.1.newlyMissed) newly missed)"
                if worst.count > 1 { out += ", then \(worst.dropFirst().prefix(3).map { "`\($0.0)`" }.joined(separator: ", "))" }
            } else {
                out += "; nothing breaks"
            }
            out += ".\n"
        }
        return out + "\n"
    }
}
