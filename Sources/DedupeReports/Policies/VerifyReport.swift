import DedupeHarness
import DedupeLifecycle

/// The text `dedupe-bench verify` prints: the shapes and their bounds, the table of every row,
/// the published policy's violations by rule, each switch's counterexample, and the verdict.
package enum VerifyReport {
    /// Short column names for the properties, with their legend.
    static let columns: [(LifecycleFailure, String)] = [
        (.duplicateScreens, "dup"), (.lostNavigations, "lost"), (.reprocessedEnvelopes, "twice"), (.wrongScreens, "wrong"),
        (.repushedAfterLeave, "repush"), (.overlappingTasks, "overlap"),
    ]

    /// The whole report; `seconds` is the search's wall time.
    package static func text(_ results: VerifyResults, actions: ActionOrderingResults, seconds: Double) -> String {
        var out = "Every ordering of each lifecycle scenario's episode, checked against six properties "
            + "(Guides/Policies.md § Verify).\n\nShapes (events, user backs) and bounds:\n"
        for shape in results.shapes {
            out += "  \(shape.scenario): \(shape.events) events, \(shape.backs) back\(shape.backs == 1 ? "" : "s") — \(shape.bound)\n"
        }
        out += "\n" + table(results)
        out += "\nColumns: orderings violating " + columns.map { "\($0.1) = \($0.0.property)" }.joined(separator: ", ")
            + ". `!` marks rows that stopped at the limit.\n"
        let verdict = results.verdict
        out += "\n" + publishedText(verdict)
        out += "\n" + switchText(verdict)
        out += "\n" + actionOrderingText(actions)
        out += "\nVerdict: " + (verdict.holds && actions.holds ? "holds" : "FAILS") + " — published: \(verdict.publishedUnexplained) unexplained "
            + "violating orderings; switches with a counterexample and none with the switch protecting: "
            + "\(verdict.switches.filter(\.holds).count) of \(verdict.switches.count); action orderings: "
            + "\(actions.defaults.violations) violating under the router's defaults.\n"
        let rate = seconds > 0 ? Double(results.orderings) / seconds : 0
        out += "\(results.orderings) orderings in \(NumberText.significant(seconds)) s (\(NumberText.significant(rate)) orderings/s).\n"
        return out
    }

    static func table(_ results: VerifyResults) -> String {
        let header = ["scenario", "persistence", "variant", "orderings"] + columns.map(\.1)
        let rows = results.rows.map { row in
            [row.scenario, row.persistence.rawValue, row.variant.rawValue, String(row.outcome.orderings) + (row.outcome.limitReached ? "!" : "")]
                + columns.map { String(row.outcome.violations(of: $0.0)) }
        }
        return PolicyReport.alignedText(header: header, rows: rows, leftColumns: 3) { $0[0] != $1[0] || $0[1] != $1[1] }
    }

    static func publishedText(_ verdict: VerifyVerdict) -> String {
        var out = "The published policy's violations, by the rule that lets them through:\n"
        if verdict.publishedViolations.isEmpty { out += "  none\n" }
        for violation in verdict.publishedViolations {
            out += "  \(violation.failure.property) by \(violation.rule.rawValue) (\(violation.rule.category.rawValue)): "
                + "\(violation.orderings) orderings\n"
            if let shortest = violation.shortest { out += counterexampleText(shortest, indent: "      ") }
        }
        out += "  Published orderings no trade-off, persistence, identity or model limit explains: \(verdict.publishedUnexplained)\n"
        return out
    }

    static func actionOrderingText(_ results: ActionOrderingResults) -> String {
        let steps = ActionOrderingCheck.steps.map(\.rawValue).joined(separator: ", ")
        var out = "Action orderings: every ordering of \(steps) through the router "
            + "(\(ActionOrderingCheck.orderingCount) per configuration):\n"
        func line(_ name: String, _ outcome: ActionOrderingOutcome) -> String {
            var line = "  \(name): \(outcome.orderings) orderings, \(outcome.duplicates) with a duplicate screen, "
                + "\(outcome.lost) with a lost wanted navigation"
            if let example = outcome.counterexample {
                line += "\n      counterexample (\(example.property.property)): " + example.steps.map(\.rawValue).joined(separator: " ")
            }
            return line + "\n"
        }
        out += line("router defaults", results.defaults)
        for (off, outcome) in results.switchesOff {
            out += line("\(off.rawValue) off", outcome)
            if !off.isReached && outcome.counterexample == nil { out += "      not reached by these steps\n" }
            if off.isReached && outcome.counterexample == nil { out += "      NO COUNTEREXAMPLE\n" }
        }
        return out
    }

    static func switchText(_ verdict: VerifyVerdict) -> String {
        var out = "Each switch: the property it protects, violated in its other position:\n"
        for check in verdict.switches {
            let where_ = check.variant.turnsSwitchOn ? "under published (switch off)" : "under the variant"
            out += "  \(check.variant.rawValue): \(check.failure.property) by \(check.rule.rawValue): \(check.unprotectedOrderings) "
                + "orderings \(where_), \(check.protectedOrderings) with the switch protecting — \(check.holds ? "shown" : "NOT SHOWN")\n"
            if let shortest = check.shortest { out += counterexampleText(shortest, indent: "      ") }
        }
        return out
    }

    /// A counterexample's location and its script, indented.
    static func counterexampleText(_ located: LocatedCounterexample, indent: String) -> String {
        var out = "\(indent)shortest (\(located.example.steps) steps) in \(located.scenario)"
            + (located.example.script.hasRelaunch ? " (\(located.persistence.rawValue))" : "") + " under \(located.variant.rawValue):\n"
        for line in script(located).split(separator: "\n") { out += indent + "  " + line + "\n" }
        return out
    }

    /// The counterexample as a script file `dedupe-bench policies --script FILE` replays.
    package static func script(_ located: LocatedCounterexample) -> String {
        let example = located.example
        return LifecycleScriptFile.render(
            example.script, persistence: example.script.hasRelaunch ? located.persistence : nil,
            comments: [
                "verify counterexample: \(located.scenario) under \(located.variant.rawValue) violates \(example.failure.property) "
                    + "(\(example.rule.rawValue))",
                "replay: dedupe-bench policies --script FILE --filter variant=\(located.variant.rawValue)",
            ])
    }

    /// A file name for each counterexample of the verdict, with its script.
    package static func counterexampleFiles(_ verdict: VerifyVerdict) -> [(name: String, text: String)] {
        var files: [(name: String, text: String)] = []
        for violation in verdict.publishedViolations {
            if let shortest = violation.shortest {
                files.append(("published--\(violation.failure.property)--\(violation.rule.rawValue).script", script(shortest)))
            }
        }
        for check in verdict.switches {
            if let shortest = check.shortest {
                files.append(("\(check.variant.rawValue)--\(check.failure.property).script", script(shortest)))
            }
        }
        return files
    }
}
