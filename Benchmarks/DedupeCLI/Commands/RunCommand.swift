import DedupeCommandLine
import DedupeDecision
import Foundation
import DedupeHarness
import DedupeReports

extension Subcommands {
    static let run = Subcommand(
        name: "run", summary: "Run the benchmark suite and write the reports (the default).", positionals: "",
        discussion: """
        Examples:
          dedupe-bench run --quick --out /tmp/reports
          dedupe-bench run --filter window=ring-buffer,hash-deque --filter consumed=set --format md,svg
        Progress goes to stderr; the recommendation and per-layer winners to stdout.
        """,
        options: [
            SharedOptions.quick, SharedOptions.filter, CommonOptions.seed, SharedOptions.repetitions,
            SharedOptions.forks, SharedOptions.windowMilliseconds, SharedOptions.out, SharedOptions.format, SharedOptions.allowDebug,
            SharedOptions.quiet, SharedOptions.decisions, SharedOptions.reference,
        ] + SharedOptions.ruleOptions
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        var plan = try SharedOptions.cataloguePlan(arguments)
        plan.forks = try SharedOptions.forks(arguments)
        plan.timingReference = try SharedOptions.reference(arguments)
        try SharedOptions.applyRuleOptions(arguments, to: &plan)
        let formats = try SharedOptions.formats(arguments)
        let directory = try SharedOptions.outputDirectory(arguments)
        let decisions = try SharedOptions.decisionsFile(arguments)
        defer { decisions?.close() }
        plan.decisionSink = decisions
        var results = try SharedOptions.execute(plan, console: console, arguments: arguments)
        results.policies = try PolicyOptions.run(seed: plan.seed, scale: plan.effectiveSizing.workloadScale)
        // Made once: every report and the summary show the same pick.
        let recommendation = Recommendation.make(from: results)
        let sampled = formats.contains(.md) ? try SharedOptions.sampleDecisions(plan, results: results, recommendation: recommendation) : nil
        try SharedOptions.writeReports(
            results, recommendation: recommendation, decisions: sampled, formats: formats, to: directory, console: console)
        console.output(Summary.text(results, recommendation))
        return 0
    }
}

/// The short summary printed on stdout after a run or a replay: what the results can show, the
/// pick, and the Swift that adopts it.
enum Summary {
    static func text(_ results: RunResults, _ recommendation: Recommendation) -> String {
        var text = ""
        if results.environment.buildConfiguration != .release {
            text += "WARNING: \(results.environment.buildConfiguration.rawValue) build: timings are not meaningful.\n"
        }
        if let note = MarkdownReport.unlabelledNote(recommendation) {
            text += note.plainText + "\n"
        }
        if let truth = results.settings.traceTruth { text += "Labels:         the trace's \(truth)\n" }
        if let profile = results.deviceProfile { text += "Sizing:         \(profile.sizingNote)\n" }
        if let winner = recommendation.winner {
            text += "Recommendation: \(winner.label) (\(describe(winner)))\n"
        } else {
            text += "Recommendation: none (\(recommendation.noWinnerReason ?? "no two-layer pipeline case was run"))\n"
        }
        if let runnerUp = recommendation.runnerUp { text += "Runner-up:      \(runnerUp.label) (\(describe(runnerUp)))\n" }
        for assessment in recommendation.assessments {
            guard let contradiction = assessment.candidate.guaranteeContradiction else { continue }
            text += "Flagged:        \(assessment.candidate.label) contradicts its declared guarantee, never recommended: \(contradiction)\n"
        }
        if let window = recommendation.windowLength {
            text += "Window length:  \(NumberText.significant(window.milliseconds)) ms (fewest weighted errors on the device workloads)\n"
        }
        if let window = recommendation.windowWinner { text += "Best window:    \(window.label) (\(describe(window)))\n" }
        if let consumed = recommendation.consumedWinner {
            text += "Best consumed:  \(consumed.label) (\(describe(consumed)))\n"
        }
        if let winner = recommendation.winner {
            text += "\nTo adopt it (\(AdoptionCode.sentence(winner, store: recommendation.store))):\n\n"
            text += AdoptionCode.swift(winner, store: recommendation.store)
        }
        return text
    }

    /// Guarantee and parameters, then speed (lower × is faster), peak memory and the errors
    /// matched against the published code on the device workloads.
    static func describe(_ candidate: Candidate) -> String {
        var parts = [candidate.guaranteeText]
        if let ns = candidate.nanosecondsPerEvent {
            var speed = "\(NumberText.significant(ns)) ns/event"
            if let ratio = candidate.ratioToReference { speed += ", \(NumberText.fixed(ratio, 2))× reference (lower is faster)" }
            parts.append(speed)
        }
        if let bytes = candidate.memoryBytes { parts.append("\(NumberText.bytes(bytes)) peak") }
        parts.append("\(candidate.newlyDropped) newly dropped, \(candidate.newlyMissed) newly missed on device workloads")
        return parts.joined(separator: "; ")
    }
}
