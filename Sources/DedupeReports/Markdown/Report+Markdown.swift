import DedupeDecision
import DedupeHarness

/// `report.md`: the summary a reviewer reads top to bottom, at most about 400 lines. Per-case
/// detail lives in the CSVs it links (§ Files). The section order is fixed and documented in
/// `Guides/Reports.md`.
package enum MarkdownReport {
    /// The line budget `report.md` keeps to: about 400 lines, so it reads in one sitting, with
    /// room for the router's latency table; checked by a test on the committed reference run.
    package static let lineBudget = 420

    /// Renders the report. `charts` are the SVG file names to embed (empty when SVG is off).
    ///
    /// - Complexity: O(cases²) for the frontier; the rest is linear.
    package static func render(
        _ results: RunResults, charts: [ChartReport.Chart] = [], recommendation: Recommendation? = nil
    ) -> String {
        let recommendation = recommendation ?? Recommendation.make(from: results)
        var out = "# PushDedupe Bench report\n\n"
        if results.environment.buildConfiguration != .release {
            out += """
            > [!WARNING]
            > # ⚠️ THIS IS A \(results.environment.buildConfiguration.rawValue.uppercased()) BUILD
            > Timings from a non-release build are meaningless: invariant checks are on and nothing is
            > optimized. Rebuild with `swift run -c release dedupe-bench` before reading any speed figure.


            """
        }
        out += recommendationSection(recommendation, results: results, charts: charts)
        out += causesSection(recommendation, results: results)
        out += routerLatencySection(results, recommendation: recommendation)
        out += twinsSection(recommendation)
        out += profileSection(results)
        out += layerSection(results)
        out += "## Mode × scenario matrix\n\n" + ScenarioMatrix.make(from: results).markdown() + "\n"
        out += PolicyReport.section(results, chart: !charts.isEmpty)
        out += robustnessSection(results)
        out += persistenceSection(results)
        out += storesSection(results, recommendation: recommendation, chart: !charts.isEmpty)
        out += paretoSection(results)
        out += strategiesSection(results)
        out += environmentSection(results)
        out += filesSection(results)
        out += chartsSection(charts)
        return out
    }

    static func environmentSection(_ results: RunResults) -> String {
        let e = results.environment
        let s = results.settings
        var rows: [String] = [
            "\(e.cpuModel) (\(e.coreCount) cores), \(e.operatingSystem), \(e.toolchain)",
            "\(e.buildConfiguration.rawValue) build, allocator \(e.allocator), commit \(e.gitCommit), \(e.date), seed \(e.seed)",
            "clock resolution \(NumberText.significant(e.clockResolutionNanoseconds)) ns"
                + (e.clockReadNanoseconds.map { ", clock read \(NumberText.significant($0)) ns" } ?? "")
                + ", harness overhead \(NumberText.significant(e.harnessOverheadNanosecondsPerEvent)) ns/event"
                + (e.harnessAllocationsPerEvent.map { ", \(NumberText.significant($0)) harness allocations per event" } ?? ""),
        ]
        if let batch = e.latencyBatchSize, let overhead = e.latencyTimingOverheadNanosecondsPerEvent {
            rows.append("latency in batches of \(batch) events (\(NumberText.significant(overhead)) ns/event added)")
        }
        var run = "\(s.repetitions) repetitions" + (s.forks.map { " × \($0) forks" } ?? "") + (s.quick ? " (quick)" : "")
        if s.forksInChildProcesses == false { run += ", every fork in this process (no child process started)" }
        run += ", window \(NumberText.significant(s.windowMilliseconds)) ms"
        run += ", filters " + (s.filters.isEmpty ? "none" : s.filters.map { "`\($0)`" }.joined(separator: ", "))
        if let seconds = e.runSeconds { run += ", \(NumberText.significant(seconds)) s in all" }
        rows.append(run)
        if let trace = s.traceFile { rows.append("trace \(MarkdownText.code(trace))") }
        return "## Environment\n\n" + rows.map { "- \($0)\n" }.joined() + "\n"
    }

    /// The per-layer tables: one row per strategy choice (pipelines at their best identity and
    /// persistence), with the workload where it made the most matched errors.
    static func layerSection(_ results: RunResults) -> String {
        var out = "## Per-layer comparison\n\n"
        out += "Errors and times over the \(results.deviceWorkloadIDs.count) device workloads. Times: geometric mean over "
        out += "workloads of each case's median ns/event (ns per admit for windows alone); × reference: geometric mean of "
        out += "the median per-repetition ratio to the mode's reference, \(results.settings.reference.phrase), timed in the same repetition, **lower is faster**. "
        out += "Newly dropped and newly missed are matched event by event against the published code, never netted; "
        out += "*worst* names the workload with the most of them. Consumed sets and pipelines are shown at their best "
        out += "identity and persistence (§ Identity and persistence); the `two-layer` pipelines are ranked in "
        out += "§ Recommendation. Every case: `correctness.csv`, `throughput.csv`.\n\n"
        let sections: [(String, CaseMode)] = [
            ("Layer 1: windows alone", .windowAlone), ("Layer 2: consumed sets alone", .consumedAlone),
            ("Pipelines (`\(CaseMode.twoLayerGuarded.rawValue)`)", .twoLayerGuarded),
        ]
        let device = Set(results.deviceWorkloadIDs)
        let rule = results.settings.recommendation.map(RecommendationRule.init) ?? RecommendationRule()
        for (title, mode) in sections {
            let cases = ComparableCases.widest(results.cases.filter { $0.mode == mode })
            guard !cases.isEmpty else { continue }
            let candidates = Recommendation.bestTwins(Recommendation.deviceCandidates(cases, device: device), rule: rule)
            out += "### \(title)\n\n" + layerTable(candidates, worst: worstWorkloads(cases, device: device)) + "\n"
        }
        return out
    }

    /// Per strategy choice, the device workload with the most matched errors and their count.
    static func worstWorkloads(_ cases: [CaseResult], device: Set<String>) -> [StrategyChoice: (String, Int)] {
        var worst: [StrategyChoice: (String, Int)] = [:]
        for result in cases where device.contains(result.workload) {
            guard let matched = result.correctness?.matched else { continue }
            let errors = matched.newlyDropped + matched.newlyMissed
            if errors > (worst[result.choice]?.1 ?? 0) { worst[result.choice] = (result.workload, errors) }
        }
        return worst
    }

    /// One row per candidate; every row covers the same workloads, so the sums compare.
    /// With `speed`, a `ns/push` column (store included) leads the figures.
    /// One row per candidate; with `routed`, two more columns for the candidate behind the
    /// shipped router: its missed duplicates, and the wanted navigations it newly drops.
    static func layerTable(
        _ candidates: [Candidate], worst: [StrategyChoice: (String, Int)] = [:], speed: SpeedModel? = nil,
        routed: [StrategyChoice: Candidate]? = nil
    ) -> String {
        let perPush: [String] = speed == nil ? [] : ["ns/push"]
        let withRouter: [String] = routed == nil ? [] : ["Missed with router", "Newly dropped with router"]
        let figures = ["ns/event", "× reference", "False drops", "Newly dropped", "Missed dups", "Newly missed"] + withRouter
            + ["Peak memory", "Worst"]
        var table = MarkdownTable(
            header: ["Case", "Guarantee"] + perPush + figures, alignRight: Set(2...(8 + perPush.count + withRouter.count)))
        for candidate in candidates {
            var row = ["`\(candidate.label)`", candidate.guaranteeText]
            if let speed { row.append(speed.nanosecondsPerPush(candidate).map(NumberText.significant) ?? "—") }
            let timing: [String] = [
                candidate.nanosecondsPerEvent.map(NumberText.significant) ?? "—",
                candidate.ratioToReference.map { NumberText.fixed($0, 2) } ?? "—",
            ]
            let errors: [String] = [
                "\(candidate.falseDrops)/\(candidate.newEvents)", String(candidate.newlyDropped),
                "\(candidate.missedDuplicates)/\(candidate.dupEvents)", String(candidate.newlyMissed),
            ] + (routed.map { routed in
                routed[candidate.choice].map { ["\($0.missedDuplicates)/\($0.dupEvents)", String($0.newlyDropped)] } ?? ["—", "—"]
            } ?? [])
            let rest: [String] = [
                candidate.memoryBytes.map(NumberText.bytes) ?? "—",
                worst[candidate.choice].map { "\(MarkdownText.code($0.0)) (\($0.1))" } ?? "none",
            ]
            table.rows.append(row + timing + errors + rest)
        }
        return table.render()
    }

    static func paretoSection(_ results: RunResults) -> String {
        var out = "## Pareto frontier\n\n"
        out += "Choices no other choice matches or beats on every axis at once (all axes: lower is better), over the "
        out += "device workloads.\n\n"
        let device = Set(results.deviceWorkloadIDs)
        let rule = results.settings.recommendation.map(RecommendationRule.init) ?? RecommendationRule()
        func candidates(_ mode: CaseMode) -> [Candidate] {
            Recommendation.bestTwins(
                Recommendation.deviceCandidates(ComparableCases.widest(results.cases.filter { $0.mode == mode }), device: device),
                rule: rule)
        }
        let groups: [(String, [Candidate], [(Candidate) -> Double?], [String])] = [
            ("Windows", candidates(.windowAlone),
             [\.nanosecondsPerEvent, { Double($0.missedDuplicates) }, { Double($0.falseDrops) }],
             ["ns/event", "Missed dups", "False drops"]),
            ("Consumed sets", candidates(.consumedAlone),
             [\.memoryBytes, { Double($0.missedDuplicates) }, { Double($0.falseDrops) }, \.nanosecondsPerEvent],
             ["Memory", "Missed dups", "False drops", "ns/event"]),
            ("Pipelines", candidates(.twoLayer),
             [\.memoryBytes, { Double($0.missedDuplicates) }, { Double($0.falseDrops) }, \.nanosecondsPerEvent],
             ["Memory", "Missed dups", "False drops", "ns/event"]),
        ]
        var any = false
        for (title, candidates, objectives, names) in groups where !candidates.isEmpty {
            any = true
            let frontier = ParetoFrontier.frontier(candidates, objectives: objectives)
            guard !frontier.isEmpty else {
                out += "**\(title):** _not every axis was measured._\n\n"
                continue
            }
            var table = MarkdownTable(header: [title] + names, alignRight: Set(1...names.count))
            for candidate in frontier {
                table.rows.append(["`\(candidate.label)`"] + objectives.enumerated().map { index, objective in
                    let value = objective(candidate) ?? 0
                    return names[index] == "Memory" ? NumberText.bytes(value)
                        : names[index] == "ns/event" ? NumberText.significant(value) : String(Int(value))
                })
            }
            out += table.render() + "\n"
        }
        return any ? out : out + "_No layer or pipeline cases were run._\n\n"
    }

    /// One row per strategy: its type, declared guarantee and the parameters it reads.
    static func strategiesSection(_ results: RunResults) -> String {
        guard !results.strategies.isEmpty else { return "" }
        var table = MarkdownTable(header: ["Strategy", "Layer", "Type", "Guarantee", "Reads"], alignRight: [])
        for info in results.strategies {
            table.rows.append([
                "`\(info.id)`", info.layer.rawValue, info.type.map { "`\($0)`" } ?? "—", info.guarantee?.text ?? "undeclared",
                info.reads.map(\.rawValue).joined(separator: ", "),
            ])
        }
        return "## Strategies\n\nEach guarantee is declared by the type; *reads* are the parameters its registration "
            + "declares, the only ones in its case ids.\n\n" + table.render() + "\n"
    }

    /// Which file holds what, for the rows this summary leaves out.
    static func filesSection(_ results: RunResults) -> String {
        var out = "## Files\n\n"
        out += "Every row is named by its `case` id (`workload/mode/strategies/identity/persistence`, "
        out += "`Guides/Reports.md` § Case ids).\n\n"
        out += "- [`correctness.csv`](correctness.csv): every case's counts, matched errors, rates with 95% intervals, "
        out += "suppressions by layer, evictions, filter false-positive rates, snapshot costs, errors by cause.\n"
        out += "- [`throughput.csv`](throughput.csv): every timed case's ns/event, spread, latency percentiles and ratios.\n"
        out += "- [`memory.csv`](memory.csv): every measured case's live and peak bytes, footprint, allocations per event.\n"
        out += "- [`sweeps.csv`](sweeps.csv): every sweep point (the charts below).\n"
        if results.stores != nil {
            out += "- [`stores.csv`](stores.csv), [`store-damage.csv`](store-damage.csv): every store design's cost rows, size sweep, "
            out += "kill sweep and two writers; the damage matrix.\n"
        }
        if results.policies != nil {
            out += "- [`policies.md`](policies.md), [`policies.csv`](policies.csv): failures per scenario and the full "
            out += "policy matrix (the latency sweep's points are in `policies.md`).\n"
        }
        out += "- [`results.json`](results.json): everything above, the one source every file is derived from.\n\n"
        return out
    }

    static func chartsSection(_ charts: [ChartReport.Chart]) -> String {
        var out = "## Charts\n\n"
        guard !charts.isEmpty else { return out + "_Charts were not written (`--format` without `svg`)._\n" }
        for chart in charts { out += "![\(chart.caption)](\(chart.fileName))\n" }
        return out
    }
}
