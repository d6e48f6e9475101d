import DedupeLifecycle

/// The cause breakdown: `policy-causes.csv`, and the published policy's remaining failures by
/// cause in `policies.md`, `report.md` and the terminal.
extension PolicyReport {
    /// The long-format columns of `policy-causes.csv`: one row per scenario, persistence,
    /// variant, failure column, mechanism and rule. Per row of `policies.csv`, the counts of one
    /// failure column add up to that column.
    package static let causeColumns = ["scenario", "persistence", "variant", "failure", "mechanism", "rule", "rule_category", "count"]

    /// - Complexity: O(causes).
    package static func causesCSV(_ policies: PolicyResults) -> CSVTable {
        CSVTable(header: causeColumns, rows: policies.rows.flatMap { row in
            (row.causes ?? []).map {
                [row.scenario, row.persistenceID, row.variant.rawValue, $0.failure.rawValue, $0.mechanism, $0.rule.rawValue,
                 $0.rule.category.rawValue, String($0.count)]
            }
        })
    }

    /// The published rows' causes, summed over mechanisms, in category then rule order.
    struct PublishedCause {
        var category: FailureRule.Category
        var rule: FailureRule
        var failure: LifecycleFailure
        var count: Int
        /// `scenario` or `scenario (persistence)` for each row it occurs in, with its mechanisms.
        var places: [String]
    }

    static let categoryOrder: [FailureRule.Category] = [.tradeOff, .persistence, .identity, .model, .switchOff, .unexplained]

    static func publishedCauses(_ policies: PolicyResults) -> [PublishedCause] {
        var causes: [PublishedCause] = []
        for row in policies.rows where row.variant == .published {
            let place = row.persistence == nil || !(policies.scenarios.first { $0.id == row.scenario }?.relaunches ?? false)
                ? row.scenario : "\(row.scenario) (\(row.persistenceID))"
            for cause in row.causes ?? [] {
                let label = "\(place): \(cause.mechanism) \(cause.count)"
                if let index = causes.firstIndex(where: { $0.rule == cause.rule && $0.failure == cause.failure }) {
                    causes[index].count += cause.count
                    causes[index].places.append(label)
                } else {
                    causes.append(.init(category: cause.rule.category, rule: cause.rule, failure: cause.failure, count: cause.count, places: [label]))
                }
            }
        }
        return causes.sorted {
            (categoryOrder.firstIndex(of: $0.category)!, $0.rule.rawValue, LifecycleFailure.allCases.firstIndex(of: $0.failure)!)
                < (categoryOrder.firstIndex(of: $1.category)!, $1.rule.rawValue, LifecycleFailure.allCases.firstIndex(of: $1.failure)!)
        }
    }

    /// Published failures no stated trade-off, persistence, identity or model limit explains.
    static func unexplainedCount(_ causes: [PublishedCause]) -> Int {
        causes.filter { $0.category == .unexplained || $0.category == .switchOff }.map(\.count).reduce(0, +)
    }

    static func publishedCauseText(_ policies: PolicyResults) -> String {
        let causes = publishedCauses(policies)
        guard policies.rows.contains(where: { $0.variant == .published }) else { return "" }
        var text = "published: remaining failures by cause (unexplained: \(unexplainedCount(causes)))\n"
        for cause in causes {
            text += "  \(cause.category.rawValue) \(cause.rule.rawValue): \(cause.failure.rawValue) \(cause.count) — "
                + cause.places.joined(separator: ", ") + "\n"
        }
        return text
    }

    static func publishedCauseMarkdown(_ policies: PolicyResults) -> String {
        let causes = publishedCauses(policies)
        let out = "Every failure of a `published` row, by the rule that let it through (`Guides/Policies.md` § Causes). "
            + "The articles' stated trade-offs come first; failures nothing explains: **\(unexplainedCount(causes))**.\n\n"
        guard !causes.isEmpty else { return out + "_None._\n" }
        var table = MarkdownTable(header: ["Category", "Rule", "Failure", "Count", "Where (scenario: mechanism count)"], alignRight: [3])
        table.rows = causes.map {
            [$0.category.rawValue, "`\($0.rule.rawValue)`", "`\($0.failure.rawValue)`", String($0.count), $0.places.joined(separator: "; ")]
        }
        return out + table.render()
    }

    /// One paragraph for `report.md`: the published remainder, summed by rule.
    static func publishedCauseSummary(_ policies: PolicyResults) -> String {
        let causes = publishedCauses(policies)
        guard !causes.isEmpty else { return "The published policy fails nowhere.\n" }
        var byRule: [(FailureRule, Int)] = []
        for cause in causes {
            if let index = byRule.firstIndex(where: { $0.0 == cause.rule }) { byRule[index].1 += cause.count } else { byRule.append((cause.rule, cause.count)) }
        }
        let parts = byRule.map { "`\($0.0.rawValue)` (\($0.0.category.rawValue)) \($0.1)" }
        return "What the published policy still lets through, by rule: " + parts.joined(separator: ", ")
            + "; unexplained: \(unexplainedCount(causes)). Causes by mechanism in [policies.md](policies.md) and `policy-causes.csv`.\n"
    }

    /// A `--script` run: its rows, then every row's causes.
    package static func scriptText(_ policies: PolicyResults) -> String {
        let header = ["variant", "persistence", "intents", "pushes", "dup_screens", "lost", "reprocessed", "wrong", "repushed",
                      "overlap", "tasks", "killed", "fetch_fail"]
        let rows = policies.rows.map { [$0.variant.rawValue, $0.persistenceID] + cells($0.counts) }
        var text = "\(policies.scenarios.first?.id ?? "script"):\n"
        text += alignedText(header: header, rows: rows, leftColumns: 2) { _, _ in false }
        for row in policies.rows where !(row.causes ?? []).isEmpty {
            text += "\n\(row.variant.rawValue): " + (row.causes ?? []).map {
                "\($0.failure.rawValue) \($0.count) (\($0.mechanism), \($0.rule.rawValue))"
            }.joined(separator: ", ")
        }
        return text + "\n"
    }

    static func leftOutText(_ leftOut: [LifecycleScript.LeftOut]) -> String {
        leftOut.map { "\($0.count) `\($0.source)`: \($0.reason)" }.joined(separator: "; ")
    }
}
