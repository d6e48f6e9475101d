import DedupeDecision
import DedupeHarness
import DedupeWorkloads

extension MarkdownReport {
    /// `, 1.2 µs per push on the calling thread, store included`: the figure the speed step ranks.
    static func perPushClause(_ winner: Candidate, _ speed: SpeedModel) -> String {
        guard let perPush = speed.nanosecondsPerPush(winner) else { return "" }
        return ", \(nanoseconds(perPush)) per push on the calling thread, store included"
    }

    /// What a trace's labels allow, and what ran on fewer events: the note on unlabelled events,
    /// how `replay` labelled the trace from its push ids, and the cases that stopped early, each
    /// followed by a blank line; empty for generated workloads.
    static func traceNotes(_ recommendation: Recommendation, results: RunResults) -> String {
        var out = unlabelledNote(recommendation).map { $0.markdown + "\n\n" } ?? ""
        if let truth = results.settings.traceTruth { out += "> **Labels.** The trace's \(MarkdownText.escaped(truth)).\n\n" }
        let stopped = results.cases.filter { $0.snapshot?.eventsRun != nil }
        if let first = stopped.first, let eventsRun = first.snapshot?.eventsRun {
            out += "> **Prefixes.** \(stopped.count) persisting case(s) stopped where their snapshots passed "
            out += "\(SnapshotResult.savedMebibytesBound) MiB written (the first, `\(MarkdownText.escaped(first.id.text))`, after "
            out += "\(eventsRun) events): they are scored on that prefix and not ranked; `correctness.csv` has their events.\n\n"
        }
        return out
    }

    /// Why a trace without truth labels scores nothing, and what it still shows; `nil` when its
    /// events are labelled.
    package static func unlabelledNote(_ recommendation: Recommendation) -> ReportNote? {
        guard let published = recommendation.published() ?? recommendation.everyChoice.first,
              published.newEvents + published.dupEvents == 0, published.unlabelledEvents > 0 else { return nil }
        var out = "The trace's `truth` column is empty on its \(published.unlabelledEvents) events, so no event "
        out += "is scored: every false drop and missed duplicate below is 0 because nothing was judged, not because nothing "
        out += "went wrong. What it shows: how each pair's decisions differ from the published code's on the same events"
        if let winner = recommendation.winner {
            out += " (the pick suppresses \(winner.newlySuppressedUnlabelled) event(s) the published code navigated and navigates "
            out += "\(winner.newlyNavigatedUnlabelled) it suppressed)"
        }
        out += ", what the published code itself did (it suppressed \(published.suppressedByWindow) by the window and "
        out += "\(published.suppressedByConsumedSet) by the consumed set), and speed and memory on this traffic. What it cannot show: "
        out += "whether a difference is a duplicate caught or a navigation lost. Label `truth` (`Guides/TraceFormat.md`) to know."
        return ReportNote(title: "No truth labels.", body: out)
    }

    /// The published code's missed duplicates by cause, then the pick's, in one paragraph.
    static func causeSummary(_ recommendation: Recommendation, results: RunResults) -> String {
        guard let published = recommendation.published(), published.dupEvents + published.newEvents > 0 else { return "" }
        var out = "On the \(results.deviceWorkloadIDs.count) device workloads the published code misses "
        out += "\(published.missedDuplicates) of \(published.dupEvents) duplicates: \(causeList(published.missedByCause))."
        if let winner = recommendation.winner, winner.choice != published.choice {
            out += " The pick misses \(winner.missedDuplicates)"
            out += winner.missedDuplicates > 0 ? ": \(causeList(winner.missedByCause))." : "."
            out += " It newly drops \(winner.newlyDropped) wanted navigation(s) the published code keeps and recovers "
            out += "\(winner.recoveredNavigations), matched event by event."
        }
        if let winner = recommendation.winner, let routed = recommendation.withRouter(winner) {
            out += " Behind the shipped router (`NavigationRouter`'s defaults: top-of-stack and loading guards, the "
            out += "superseded fetch cancelled), the pick misses \(routed.missedDuplicates)"
            out += routed.missedDuplicates > 0 ? ": \(causeList(routed.missedByCause))." : "."
            out += " It drops \(routed.falseDrops) wanted navigation(s)"
            out += routed.falseDrops > 0 ? " (\(causeList(routed.droppedByCause)))" : ""
            out += ", \(routed.newlyDropped) of them kept by the published code without the router, matched event by event."
        }
        return out + "\n\n"
    }

    /// `198 caught with push-id identity, 200 only a loading guard`, largest first.
    static func causeList(_ causes: [String: Int]) -> String {
        let sorted = causes.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        return sorted.isEmpty ? "none" : sorted.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    static func recommendationSection(_ recommendation: Recommendation, results: RunResults, charts: [ChartReport.Chart]) -> String {
        var out = traceNotes(recommendation, results: results)
        out += "## Recommendation\n\n"
        out += contradictedGuarantees(recommendation)
        let rule = recommendation.rule
        if let winner = recommendation.winner {
            out += "**Adopt `\(winner.label)`\(storeClause(recommendation.store, winner))**\(perPushClause(winner, recommendation.speed)): "
            out += AdoptionCode.sentence(winner, store: recommendation.store) + "\n\n"
            out += "```swift\n" + AdoptionCode.swift(winner, store: recommendation.store) + "```\n\n"
            out += causeSummary(recommendation, results: results)
            out += "Why, by the rule below, in mode `\(recommendation.mode?.rawValue ?? "-")` over the "
            out += "\(recommendation.deviceWorkloads.count) device workload(s):\n\n"
            out += "1. **Guarantee:** \(winner.guaranteeText), declared by the types: "
            out += winner.guaranteeClasses.contains("may-drop") ? "it can drop a wanted navigation (allowed by --allow-probabilistic).\n"
                : "it never drops a wanted navigation by construction.\n"
            if let profile = recommendation.profile {
                out += "2. **Horizon:** it remembers the \(profile.horizonIDs) ids of a \(NumberText.duration(milliseconds: profile.horizonMilliseconds)) "
                out += "horizon (\(profile.horizonSource == "trace" ? "the trace's own peak" : "\(NumberText.significant(profile.facts.pushesPerDay)) pushes a day")) "
                out += "and every fingerprint for its whole window.\n"
            }
            if let bytes = winner.memoryBytes {
                out += "3. **Memory:** \(NumberText.bytes(bytes)) peak" + (winner.memoryWorkload.map { " on \(MarkdownText.code($0))" } ?? "")
                out += bytes <= rule.memoryBudgetBytes ? ", under the \(NumberText.bytes(rule.memoryBudgetBytes)) budget"
                    : ", over the \(NumberText.bytes(rule.memoryBudgetBytes)) budget: no pipeline fits it, so the smallest goes on"
                if let snapshot = winner.snapshotBytes { out += "; the largest snapshot it wrote in the run is \(NumberText.bytes(Double(snapshot)))" }
                out += ".\n"
            } else {
                out += "3. **Memory:** not measured, so not held against it.\n"
            }
            if let cost = storeCostSentence(recommendation.store, winner, results: results) { out += "   \(cost)\n" }
            let speed = recommendation.speed
            out += "4. **Speed:** \(speed.nanosecondsPerPush(winner).map { nanoseconds($0) + " per push, store included" } ?? "not timed")"
            if let structure = winner.nanosecondsPerEvent {
                out += " (\(NumberText.significant(structure)) ns/event for the structures, plus \(nanoseconds(speed.storeNanosecondsPerConsume)) "
                out += "per consume × \(NumberText.fixed(winner.consumesPerEvent, 3)) consumes per event)"
            }
            if let ratio = winner.ratioToReference { out += "; the structures take \(NumberText.fixed(ratio, 2))× the published code's time" }
            out += ". A lead decides only beyond a \(NumberText.percent(speed.margin)) margin: the larger of "
            out += "\(NumberText.percent(SpeedModel.hostMargin)) and twice this run's A/A spread, "
            out += speed.aaSpread.map { "\(NumberText.percent($0)) (the published code's largest ratio between two of its timing forks)" }
                ?? "not measured (fewer than two forks)"
            out += ".\n\n"
            if let runnerUp = recommendation.runnerUp {
                out += "**Runner-up:** `\(runnerUp.label)` (\(runnerUp.guaranteeText); \(Recommendation.describe(runnerUp))).\n\n"
            }
        } else {
            out += "_No pipeline to adopt: \(recommendation.noWinnerReason ?? "no two-layer pipeline case was run")._\n\n"
        }
        if !recommendation.wouldChange.isEmpty {
            out += "**What would change the answer:**\n\n"
            out += recommendation.wouldChange.map { "- \($0)\n" }.joined() + "\n"
        }
        if let window = recommendation.windowWinner {
            out += "- Best layer-1 window on its own: `\(window.label)` (\(Recommendation.describe(window))).\n"
        }
        if let consumed = recommendation.consumedWinner {
            out += "- Best layer-2 consumed set on its own: `\(consumed.label)` (\(Recommendation.describe(consumed))).\n"
        }
        if recommendation.windowWinner != nil || recommendation.consumedWinner != nil { out += "\n" }
        out += windowLengthText(recommendation, charts: charts)
        out += ruleText(rule)
        out += assessmentTable(recommendation)
        return out
    }

    /// Missed duplicates and false drops by cause: the published code at each identity and
    /// persistence, and the pick.
    static func causesSection(_ recommendation: Recommendation, results: RunResults) -> String {
        guard let published = recommendation.published() else { return "" }
        var columns: [(String, Candidate)] = [("published, `minted`, `memory`", published)]
        for (identity, persistence) in [(EnvelopeIdentity.pushID, Persistence.memory), (.pushID, .afterEveryConsume)] {
            if let twin = recommendation.published(identity: identity, persistence: persistence) {
                columns.append(("published, `\(identity.rawValue)`, `\(persistence.rawValue)`", twin))
            }
        }
        if let winner = recommendation.winner, !columns.contains(where: { $0.1.choice == winner.choice }) {
            columns.append(("the pick", winner))
        }
        var causes: [String] = []
        for (_, candidate) in columns {
            for cause in candidate.missedByCause.keys.sorted() where !causes.contains(cause) { causes.append(cause) }
        }
        var out = "## Missed duplicates by cause\n\n"
        out += "Every missed duplicate on the device workloads, attributed event by event (`Guides/Harness.md` § Matched errors and causes): "
        out += "a twin of the same strategies at another identity or persistence that stops the same event names the "
        out += "cause; the rest are named by what they are.\n\n"
        var table = MarkdownTable(header: ["Cause"] + columns.map(\.0), alignRight: Set(1...columns.count))
        for cause in causes {
            table.rows.append([cause] + columns.map { String($0.1.missedByCause[cause] ?? 0) })
        }
        table.rows.append(["**all missed**"] + columns.map { "**\($0.1.missedDuplicates)**" })
        table.rows.append(["false drops"] + columns.map { "\($0.1.falseDrops) (\(causeList($0.1.droppedByCause)))" })
        return out + table.render() + "\n"
    }

    static func windowLengthText(_ recommendation: Recommendation, charts: [ChartReport.Chart]) -> String {
        guard let choice = recommendation.windowLength, let chosen = choice.points.first(where: { $0.milliseconds == choice.milliseconds })
        else { return "" }
        var out = "**Window length:** \(NumberText.significant(choice.milliseconds)) ms — it minimises "
        out += "\(NumberText.significant(choice.dropWeight)) × false drops + missed duplicates of `\(choice.strategy)` + "
        out += "`\(ReferenceStrategies.consumed)` at `push-id` and `after-every-consume` (as the pick ships) summed over the device workloads (\(chosen.falseDrops) false drops, "
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
        var out = "_Decision rule, in order:_ each strategy pair competes at its **best identity and persistence** (fewest "
        out += "weighted errors, drop weight × false drops + missed duplicates; a tie goes to the cheaper persistence, then to `minted`); then (1) **guarantee** — a "
        out += "`may-drop` strategy is excluded"
        out += rule.allowProbabilistic ? " unless allowed, and this run allowed it (`--allow-probabilistic`)" : " unless `--allow-probabilistic` is given"
        out += " (a lost navigation is worse than a duplicate screen, and a probabilistic drop cannot be reproduced); "
        out += "(2) **horizon** — by its declared guarantee and parameters, the consumed set remembers every id of the device "
        out += "profile's horizon, and the window every fingerprint for its whole length; "
        out += "(3) **memory** — peak live bytes on the largest workload under the \(NumberText.bytes(rule.memoryBudgetBytes)) budget "
        out += "(`--memory-budget`), everything under it tying; "
        out += "(4) **speed** — what a push costs on the calling thread, store included (geometric mean of median ns/event over "
        out += "the device workloads, plus the picked store's cost per consume times consumes per event); a candidate is faster "
        out += "only when the 95% interval of its ratio to another, over paired timing forks, lies wholly beyond the margin "
        out += "(the larger of \(NumberText.percent(SpeedModel.hostMargin)), what moved between hosts, and twice the run's A/A "
        out += "spread); every candidate no other is faster than ties, and the tie goes to the stronger guarantee within the "
        out += "device profile's horizon, then fewer matched errors (\(NumberText.significant(rule.dropWeight)) × newly dropped + "
        out += "newly missed), then less memory, then fewer bytes written per event, then the name. Stress workloads do not "
        out += "decide (§ Robustness).\n\n"
        return out
    }

    /// One line per candidate whose results contradict its declared guarantee: flagged by name,
    /// never recommended.
    static func contradictedGuarantees(_ recommendation: Recommendation) -> String {
        recommendation.assessments.compactMap { assessment in
            assessment.candidate.guaranteeContradiction.map {
                "**Flagged: `\(assessment.candidate.label)` contradicts its declared guarantee**, never recommended: \($0).\n\n"
            }
        }.joined()
    }

    static func assessmentTable(_ recommendation: Recommendation) -> String {
        guard !recommendation.assessments.isEmpty else { return "" }
        var table = MarkdownTable(
            header: ["Rank", "Pipeline", "Verdict", "ns/event", "× reference", "Peak memory", "False drops", "Newly dropped",
                     "Missed dups", "Newly missed"],
            alignRight: [0, 3, 4, 5, 6, 7, 8, 9])
        for (index, assessment) in recommendation.assessments.enumerated() {
            let c = assessment.candidate
            let verdict = assessment.excludedBy.map { "excluded at step \($0.rawValue): \(assessment.reason ?? "")" } ?? "passes 1–3"
            table.rows.append([
                String(index + 1), "`\(c.label)`", verdict,
                c.nanosecondsPerEvent.map(NumberText.significant) ?? "—", c.ratioToReference.map { NumberText.fixed($0, 2) } ?? "—",
                c.memoryBytes.map(NumberText.bytes) ?? "—", "\(c.falseDrops)/\(c.newEvents)", String(c.newlyDropped),
                "\(c.missedDuplicates)/\(c.dupEvents)", String(c.newlyMissed),
            ])
        }
        return "Every `two-layer` pipeline at its best identity and persistence, as the rule ranks it (errors over the device "
            + "workloads; × reference and newly dropped / missed against the published code as it ships):\n\n" + table.render() + "\n"
    }

    static func profileSection(_ results: RunResults) -> String {
        guard let profile = results.deviceProfile else { return "" }
        var out = "## Device profile and sizing\n\n"
        out += "The consumed set is sized from stated facts (`Guides/Workloads.md` § Phone facts), the window from the "
        out += "measured bursts; \(profile.sizingNote). Safety factor \(NumberText.significant(profile.safetyFactor)) "
        out += "(`--safety-factor`; `--pushes-per-day`, `--retention-days` change the facts).\n\n"
        var table = MarkdownTable(header: ["Fact or measurement", "Value", "Sizing", "Value"], alignRight: [1, 3])
        let sizing = profile.sizing
        table.rows = [
            ["Pushes per day (heavy app)", NumberText.significant(profile.facts.pushesPerDay),
             "Ids to remember (\(profile.horizonSource))", String(profile.horizonIDs)],
            ["Retention horizon", NumberText.duration(milliseconds: profile.horizonMilliseconds),
             "Consumed capacity = ids × factor", String(sizing.consumedCapacity)],
            ["Traffic measured", "\(NumberText.duration(milliseconds: profile.spanMilliseconds)), \(profile.relaunches) relaunches",
             "Retention = horizon × factor", NumberText.duration(milliseconds: sizing.retentionMilliseconds)],
            ["Most payloads within one \(NumberText.significant(profile.windowMilliseconds)) ms window", String(profile.peakPayloadsInWindow),
             "Window capacity = that × factor", String(sizing.windowCapacity)],
            ["Longest replay measured", NumberText.duration(milliseconds: profile.longestReplayMilliseconds),
             "Filter rate = capacity / retention", "\(NumberText.significant(sizing.expectedRatePerSecond)) ids/s"],
        ]
        out += table.render() + "\n"
        var delays = MarkdownTable(header: ["Delay (ms)", "Count", "p50", "p90", "p99", "Max"], alignRight: [1, 2, 3, 4, 5])
        for (name, d) in [("Replays and re-deliveries after the first", profile.replayDelays),
                          ("Wanted re-taps after the same route", profile.wantedRetapDelays),
                          ("Duplicate payloads after the same route", profile.duplicatePayloadDelays)] {
            delays.rows.append([name, String(d.count)] + [d.p50, d.p90, d.p99, d.max].map(NumberText.significant))
        }
        return out + delays.render() + "\n"
    }

    /// What breaks first under traffic beyond one device, and where: every pipeline's matched
    /// errors on each stress workload, at the device sizing.
    static func robustnessSection(_ results: RunResults) -> String {
        let stress = (results.workloads ?? []).filter { $0.tag == "stress" }
        guard !stress.isEmpty else { return "" }
        let pipelines = ComparableCases.widest(results.cases.filter {
            $0.mode == ReferenceStrategies.mode && $0.window != nil && $0.choice.isBase
        })
        var out = "## Robustness (stress workloads)\n\n"
        out += "The same pipelines (`minted`, `memory`) at the device sizing on traffic beyond one device; these figures do not "
        out += "decide. Cells: newly dropped / newly missed against the published code, matched event by event.\n\n"
        var table = MarkdownTable(header: ["Pipeline"] + stress.map { MarkdownText.code($0.id) }, alignRight: Set(1...stress.count))
        var rows: [StrategyChoice] = []
        for result in pipelines where !rows.contains(result.choice) { rows.append(result.choice) }
        var byKey: [String: MatchedErrors] = [:]
        for result in pipelines { if let matched = result.correctness?.matched { byKey[result.id.text] = matched } }
        for choice in rows {
            table.rows.append(["`\(choice.strategiesText)`"] + stress.map { workload in
                byKey[CaseID(workload: workload.id, choice: choice).text].map { "\($0.newlyDropped) / \($0.newlyMissed)" } ?? "—"
            })
        }
        out += table.render() + "\n"
        for workload in stress {
            out += "- \(MarkdownText.code(workload.id)): an exact set forgetting its oldest ids would need capacity "
            out += "\(workload.envelopesWithinLongestReplay) to catch every replay (longest "
            out += "\(NumberText.duration(milliseconds: workload.longestReplayMilliseconds))).\n"
        }
        return out + "\n"
    }
}
