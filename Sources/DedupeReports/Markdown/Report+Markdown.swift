import DedupeHarness

/// `report.md`: one report a reviewer reads top to bottom. The section order is fixed and
/// documented in `Guides/Reports.md`.
public enum MarkdownReport {
    /// Renders the report. `charts` are the SVG file names to embed (empty when SVG is off).
    ///
    /// - Complexity: O(cases²) for the frontier; the rest is linear.
    public static func render(_ results: RunResults, charts: [ChartReport.Chart] = []) -> String {
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
        out += recommendationSection(recommendation, charts: charts)
        out += profileSection(results)
        out += environmentSection(results)
        out += strategiesSection(results)
        out += layerSection(results)
        out += "## Mode × scenario matrix\n\n" + ScenarioMatrix.make(from: results).markdown() + "\n"
        out += PolicyReport.section(results, chart: !charts.isEmpty)
        out += robustnessSection(results)
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
            out += "**Adopt `\(winner.window ?? "-")` + `\(winner.consumed ?? "-")`** (\(winner.guaranteeText); \(winner.parameterText))"
            if let runnerUp = recommendation.runnerUp { out += "; runner-up `\(runnerUp.label)`" }
            out += ".\n\n"
        } else if let reason = recommendation.noWinnerReason {
            out += "**No pipeline to adopt:** \(reason).\n\n"
        }
        let pipelines = results.cases.filter {
            $0.mode == ReferenceStrategies.mode && $0.window != nil && $0.consumed != nil
        }
        if !pipelines.isEmpty {
            let candidates = Recommendation.deviceCandidates(
                ComparableCases.widest(pipelines), device: Set(results.deviceWorkloadIDs), window: true, consumed: true)
            out += parameterLine(candidates) + "\n\n"
            out += layerTable(candidates)
        }
        let e = results.environment
        out += "_\(e.cpuModel), \(e.coreCount) cores, \(e.buildConfiguration) build, \(e.allocator), seed \(e.seed), "
        out += "commit \(e.gitCommit). Errors and times over the \(results.deviceWorkloadIDs.count) device workload(s); "
        out += "times: geometric mean of median ns/event; × reference: against `\(ReferenceStrategies.window) + "
        out += "\(ReferenceStrategies.consumed)` timed in the same run, **lower × is faster**; newly dropped / missed: "
        out += "matched event by event against the same reference; peak memory: on the largest workload each ran._\n"
        return out
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
        out += "Errors and times over the device workloads (\(results.deviceWorkloadIDs.map { "`\($0)`" }.joined(separator: ", "))). "
        out += "Times are the geometric mean over workloads of each case's median ns/event (ns per admit for "
        out += "windows alone); × reference is the geometric mean of the median per-repetition ratio to the "
        out += "reference timed in the same repetition (`\(ReferenceStrategies.window)` for windows, "
        out += "`\(ReferenceStrategies.consumed)` for consumed sets, the `two-layer` `\(ReferenceStrategies.window) + "
        out += "\(ReferenceStrategies.consumed)` for every pipeline mode): **lower × is faster**. Newly dropped and newly "
        out += "missed are matched event by event against the reference of the same mode on the same events, never "
        out += "netted. Peak memory is the allocator's peak live bytes on the largest workload the row ran on. "
        out += "Parameters are listed once per strategy in § Strategies.\n\n"
        let sections: [(String, String, Bool, Bool)] = [
            ("Layer 1: windows alone", CaseMode.windowAlone.rawValue, true, false),
            ("Layer 2: consumed sets alone", CaseMode.consumedAlone.rawValue, false, true),
            ("Pipelines (`\(CaseMode.twoLayer.rawValue)`)", CaseMode.twoLayer.rawValue, true, true),
            ("Pipelines (`\(CaseMode.twoLayerGuarded.rawValue)`)", CaseMode.twoLayerGuarded.rawValue, true, true),
        ]
        let device = Set(results.deviceWorkloadIDs)
        for (title, mode, keepWindow, keepConsumed) in sections {
            let cases = results.cases.filter { $0.mode == mode }
            guard !cases.isEmpty else { continue }
            out += "### \(title)\n\n"
            let widest = ComparableCases.widest(cases, window: keepWindow, consumed: keepConsumed)
            out += layerTable(Recommendation.deviceCandidates(widest, device: device, window: keepWindow, consumed: keepConsumed))
        }
        return out
    }

    /// `Parameters, …: window 500 ms (`seed-literal`, …); capacity 8 (`fifo-set`, …).`: each
    /// value once, with the strategies that read it.
    static func parameterLine(_ candidates: [Candidate]) -> String {
        var order: [String] = []
        var readers: [String: [String]] = [:]
        func add(_ parameters: [StrategyParameter]?, of id: String?, _ values: CaseParameters) {
            guard let id else { return }
            for parameter in parameters ?? [] {
                let text = parameter.text(values)
                if readers[text] == nil { order.append(text) }
                if !(readers[text]?.contains(id) ?? false) { readers[text, default: []].append(id) }
            }
        }
        for candidate in candidates {
            add(candidate.windowReads, of: candidate.window, candidate.parameters)
            add(candidate.consumedReads, of: candidate.consumed, candidate.parameters)
        }
        guard !order.isEmpty else { return "_No strategy declared the parameters it reads._" }
        return "Parameters, each read only by the strategies named: "
            + order.map { "\($0) (\(readers[$0]!.map { "`\($0)`" }.joined(separator: ", ")))" }.joined(separator: "; ") + "."
    }

    /// One row per candidate; every row covers the same workloads, so the sums compare.
    static func layerTable(_ candidates: [Candidate]) -> String {
        var table = MarkdownTable(
            header: ["Strategy", "Guarantee", "Workloads", "ns/event", "× reference (lower is faster)", "False drops",
                     "Newly dropped", "Missed dups", "Newly missed", "Peak memory (largest workload)"],
            alignRight: [2, 3, 4, 5, 6, 7, 8, 9])
        for candidate in candidates {
            table.rows.append([
                "`\(candidate.label)`", candidate.guaranteeText, String(candidate.workloads),
                candidate.nanosecondsPerEvent.map(NumberText.significant) ?? "—",
                candidate.ratioToReference.map { NumberText.fixed($0, 2) } ?? "—",
                "\(candidate.falseDrops)/\(candidate.newEvents)", String(candidate.newlyDropped),
                "\(candidate.missedDuplicates)/\(candidate.dupEvents)", String(candidate.newlyMissed),
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
            var table = MarkdownTable(header: ["Strategy", "Guarantee"] + names, alignRight: Set(2..<(2 + names.count)))
            for candidate in frontier {
                table.rows.append(["`\(candidate.label)`", candidate.guaranteeText] + objectives.enumerated().map { index, objective in
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
    public var parameterText: String {
        StrategyParameter.summary(
            (window != nil ? windowReads ?? [] : []) + (consumed != nil ? consumedReads ?? [] : []), parameters)
    }

    /// The layers' declared guarantees, `exact + exact-forgets-oldest`.
    public var guaranteeText: String { GuaranteeRecord.summary(windowGuarantee, consumedGuarantee) }
}
