import DedupeDecision
import DedupeHarness
import DedupeWorkloads

extension MarkdownReport {
    /// The rows the headline's table shows at most, the published code's included; the rest are
    /// in `report.md`.
    static let headlineRows = 8

    /// The block the README shows, written as `headline.md` so the README can be checked against
    /// the reference run: the verdict in three sentences (the pair and its store, what it fixes,
    /// what it costs), the adoption code, and a short table against the published code.
    package static func headline(_ results: RunResults, recommendation: Recommendation? = nil) -> String {
        let recommendation = recommendation ?? Recommendation.make(from: results)
        var out = traceNotes(recommendation, results: results)
        guard let winner = recommendation.winner else {
            out += "**No pipeline to adopt:** \(recommendation.noWinnerReason ?? "no candidate passed the rule").\n\n"
            return out + contradictedGuarantees(recommendation)
        }
        out += "**Adopt \(shortName(winner))\(storeClause(recommendation.store, winner))"
        out += recommendation.withRouter(winner) != nil ? ", behind `NavigationRouter`.**" : ".**"
        out += "\n" + verdictSentences(recommendation, winner: winner, results: results) + "\n"
        out += contradictedGuarantees(recommendation)
        out += "```swift\n" + AdoptionCode.swift(winner, store: recommendation.store) + "```\n\n"
        out += headlineTable(recommendation) + "\n"
        let e = results.environment
        out += "_Case id of the pick: `\(winner.label)`. \(e.cpuModel), \(e.coreCount) cores, \(e.buildConfiguration.rawValue) build, "
        out += "seed \(e.seed). Errors summed over the \(results.deviceWorkloadIDs.count) device workloads; ns/push: the calling "
        out += "thread's cost of a push, store included; every table of the run: `report.md`._\n"
        return out
    }

    /// `` `hash-deque` + `fifo-set` keyed on the push's id ``: the pair in plain words.
    static func shortName(_ candidate: Candidate) -> String {
        let layers = [candidate.window, candidate.consumed].compactMap { $0 }.map { "`\($0)`" }.joined(separator: " + ")
        switch candidate.choice.identity {
        case .pushID?: return layers + " keyed on the push's id"
        case .minted?: return layers + " keyed on a minted id"
        case nil: return layers
        }
    }

    /// What the pick fixes against the published code, behind the router, and what a push costs:
    /// one sentence a line, so each stays short in the README.
    static func verdictSentences(_ recommendation: Recommendation, winner: Candidate, results: RunResults) -> String {
        var out = ""
        let workloads = results.deviceWorkloadIDs.count
        if let published = recommendation.published(), published.dupEvents > 0 {
            out += "On the \(workloads) device workloads it misses \(winner.missedDuplicates) of \(winner.dupEvents) duplicates "
            out += "where the published code misses \(published.missedDuplicates), and drops \(winner.falseDrops) wanted "
            out += "navigation(s) against the published code's \(published.falseDrops), \(winner.newlyDropped) of them newly.\n"
        }
        if let routed = recommendation.withRouter(winner) {
            out += "Behind the router's guards it misses \(routed.missedDuplicates) and drops \(routed.falseDrops)"
            out += routed.falseDrops > 0 ? " (\(causeList(routed.droppedByCause))).\n" : ".\n"
        }
        if let perPush = recommendation.speed.nanosecondsPerPush(winner) {
            out += "A push costs \(nanoseconds(perPush)) on the calling thread, store included"
            if let published = recommendation.published(), let reference = recommendation.speed.nanosecondsPerPush(published) {
                out += ", against the published code's \(nanoseconds(reference)) with its set in memory, lost at every kill"
            }
            out += ".\n"
        }
        return out
    }

    /// The published code, then the ranked pipelines: at most ``headlineRows`` rows of seven
    /// columns. The ratio is per push, from the two ns/push figures beside it.
    static func headlineTable(_ recommendation: Recommendation) -> String {
        let routed = !recommendation.routed.isEmpty
        var table = MarkdownTable(
            header: ["Pipeline", "Guarantee", "ns/push", "× published", "Missed dups", "False drops"]
                + (routed ? ["Behind the router"] : []),
            alignRight: Set(2...5))
        let published = recommendation.published()
        let ranked = recommendation.assessments.filter { $0.excludedBy == nil }.map(\.candidate)
        var rows = ([published].compactMap { $0 } + ranked.filter { $0.choice != published?.choice })
        let total = rows.count
        rows = Array(rows.prefix(headlineRows))
        let reference = published.flatMap { recommendation.speed.nanosecondsPerPush($0) }
        for candidate in rows {
            let perPush = recommendation.speed.nanosecondsPerPush(candidate)
            var name = [candidate.window, candidate.consumed].compactMap { $0 }.map { "`\($0)`" }.joined(separator: " + ")
            if candidate.choice == published?.choice { name = "published: " + name }
            if let identity = candidate.choice.identity, let persistence = candidate.choice.persistence {
                name += " (\(identity.rawValue), \(persistence.rawValue))"
            }
            var row = [
                name, candidate.guaranteeText, perPush.map(NumberText.significant) ?? "—",
                perPush.flatMap { value in reference.map { NumberText.fixed(value / $0, 2) } } ?? "—",
                "\(candidate.missedDuplicates)/\(candidate.dupEvents)", "\(candidate.falseDrops)/\(candidate.newEvents)",
            ]
            if routed {
                row.append(recommendation.withRouter(candidate).map { "\($0.missedDuplicates) missed, \($0.falseDrops) dropped" } ?? "—")
            }
            table.rows.append(row)
        }
        var out = table.render()
        if total > rows.count { out += "\n\(total - rows.count) more pipeline(s), and every excluded one with its reason: `report.md` § Recommendation.\n" }
        return out
    }
}

