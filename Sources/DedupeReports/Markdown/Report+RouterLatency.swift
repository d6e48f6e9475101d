import DedupeDecision
import DedupeHarness
import DedupeWorkloads

extension MarkdownReport {
    /// § Behind the router, by fetch latency: how the router's catches and drops move as every
    /// fetch behind a tap gets shorter or longer (``RouterLatencySweep``); empty when the run has
    /// no sweep (a trace, an older file).
    static func routerLatencySection(_ results: RunResults, recommendation: Recommendation) -> String {
        guard let sweep = results.routerLatencySweep, !sweep.points.isEmpty else { return "" }
        let facts = ActionTimingFacts.published
        var out = "## Behind the router, by fetch latency\n\n"
        out += "The router's loading guard holds as long as each action's fetch runs, so what it catches depends on the fetch. "
        out += "Every fetch behind a tap is scaled from the stated facts (log-normal, median \(NumberText.significant(facts.medianFetchMilliseconds)) ms, "
        out += "p75 \(NumberText.significant(facts.p75FetchMilliseconds)) ms, `Guides/Workloads.md` § Taps and actions), every other draw unchanged, "
        out += "on the workloads whose actions draw one (" + sweep.workloads.map(MarkdownText.code).joined(separator: ", ") + "), "
        out += "for \(MarkdownText.code(sweep.choice))"
        if let winner = recommendation.winner {
            var routed = winner.choice
            routed.mode = .twoLayerGuarded
            out += routed.text == sweep.choice
                ? " (the pick behind the router)"
                : ", the published pipeline's candidate fixed before the run; the pick behind the router is \(MarkdownText.code(routed.text))"
        }
        out += ". ×1 is the stated facts: the run's own figures for that case on these workloads.\n\n"
        var table = MarkdownTable(header: ["Fetch scale", "Median fetch", "Missed with router", "Dropped with router"], alignRight: [1, 2, 3])
        for point in sweep.points {
            table.rows.append([
                "×" + NumberText.exact(point.scale),
                NumberText.duration(milliseconds: facts.medianFetchMilliseconds * point.scale),
                "\(point.missed)/\(point.duplicates)", "\(point.dropped)/\(point.wanted)",
            ])
        }
        return out + table.render() + "\n"
    }
}
