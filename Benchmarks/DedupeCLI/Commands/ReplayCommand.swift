import DedupeCommandLine
import DedupeDecision
import DedupeHarness
import DedupeReports
import PushDedupe

extension Subcommands {
    static let replay = Subcommand(
        name: "replay", summary: "Run every strategy and mode on a trace file.", positionals: "TRACE.csv",
        discussion: """
        The trace format is documented in Guides/TraceFormat.md: header \(TraceFormat.headers[TraceFormat.headers.count - 1])
        (the first \(TraceFormat.minimumColumnCount) columns are required; a header may stop after any of them).
        A malformed trace fails with 'FILE:LINE: reason' and exit code 2.
        """,
        options: [
            SharedOptions.filter, SharedOptions.repetitions, SharedOptions.forks, SharedOptions.windowMilliseconds, SharedOptions.out,
            SharedOptions.format, SharedOptions.allowDebug, SharedOptions.quiet, SharedOptions.decisions, SharedOptions.reference,
        ] + SharedOptions.ruleOptions
    ) { arguments, console throws(CommandLineError) in
        let path = try arguments.positionals(named: ["TRACE.csv"])[0]
        let repetitions = try SharedOptions.repetitions(arguments)
        let window = try SharedOptions.windowMilliseconds(arguments)
        let filter = try SharedOptions.filter(arguments)
        let formats = try SharedOptions.formats(arguments)
        let directory = try SharedOptions.outputDirectory(arguments)
        if filter.workloads != nil {
            throw CommandLineError(.badValue, "'--filter workload=...' does not apply to replay")
        }
        var workload = try TraceFiles.read(path: path)
        // A header alone, or only lines that are no push (relaunches), is a valid file but
        // nothing to measure: every rate would be 0/0.
        if let problem = TraceFiles.nothingToMeasure(in: workload) {
            throw CommandLineError(.malformedInput, "\(path): \(problem)")
        }
        // A recorded trace has push ids and no labels: every later delivery of a push is a
        // duplicate by definition, so those are scored, not just compared.
        workload.labellingPushRedeliveries()
        let name = workload.name
        // The plan holds the only copy of the events, and hands it to the harness (`handOver`).
        var plan = RunPlan(
            source: .trace(consume workload, fileName: name), repetitions: repetitions,
            windowMilliseconds: window, filter: filter, runSweeps: false)
        plan.forks = try SharedOptions.forks(arguments)
        plan.timingReference = try SharedOptions.reference(arguments)
        plan.allowDebugBuild = arguments.has(SharedOptions.allowDebug)
        try SharedOptions.applyRuleOptions(arguments, to: &plan)
        let decisions = try SharedOptions.decisionsFile(arguments)
        defer { decisions?.close() }
        plan.decisionSink = decisions
        let results = try SharedOptions.execute(plan.handOver(), console: console, arguments: arguments)
        // Made once: every report and the summary show the same pick.
        let recommendation = Recommendation.make(from: results)
        try SharedOptions.writeReports(results, recommendation: recommendation, formats: formats, to: directory, console: console)
        console.output(Summary.text(results, recommendation))
        return 0
    }
}
