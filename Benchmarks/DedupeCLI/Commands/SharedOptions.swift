import DedupeMeasurement
import DedupeCommandLine
import DedupeDecision
import DedupeHarness
import DedupeReports
import Foundation

/// Options several subcommands share, and their parsing.
package enum SharedOptions {
    package static let repetitions = OptionSpec("repetitions", value: "N", help: "Timed repetitions per case and fork, at least 1 (default 5).")
    static let forks = OptionSpec(
        "forks", value: "N", help: "Processes the timing repetitions run in, 1 to 64 (default 6; see Guides/Harness.md).")
    package static let windowMilliseconds = OptionSpec("window-ms", value: "MS", help: "Layer-1 window length in ms (default 500).")
    static let out = OptionSpec("out", value: "DIR", help: "Directory for the reports (default \(defaultOutputDirectory)/).")
    static let format = OptionSpec("format", value: "LIST", help: "Reports to write: any of csv,md,json,svg (default all).")
    package static let filter = OptionSpec(
        "filter", value: "KEY=ID,...", repeatable: true,
        help: "Restrict to ids; KEY is window, consumed, workload, mode, or case (a case id, with or without its workload). "
            + "KEY=/REGEX/ keeps the ids with a match of a Swift regular expression; /REGEX/ alone is case=/REGEX/.")
    static let reference = OptionSpec(
        "reference", value: "SPEC",
        help: "What timing ratios are against: published (published-literal / set, the default), none, or window=ID,consumed=ID "
            + "(exact strategies; a layer not named stays published). Correctness is always matched against the published code.")
    package static let quick = OptionSpec("quick", help: "CI mode: fewer events, repetitions and sweep points.")
    package static let quiet = OptionSpec("quiet", help: "No progress display on stderr (errors and warnings still appear).")
    /// The columns are read from the writer's header, so the help cannot list old ones.
    static let decisions = OptionSpec(
        "decisions", value: "FILE.csv",
        help: "Also write every case's decision on every event (\(DecisionsCSV.header.joined(separator: ","))).")
    package static let allowDebug = OptionSpec(
        "allow-debug", help: "Time a debug build anyway (its reports carry a large warning); refused otherwise.")

    /// The plan of a run of the catalogue from the options `run` and `dedupe-maintain
    /// live-set-sweep` share: `--quick`, `--seed`, `--repetitions`, `--window-ms`, `--filter` and
    /// `--allow-debug`.
    package static func cataloguePlan(_ arguments: ParsedArguments) throws(CommandLineError) -> RunPlan {
        var plan = RunPlan(
            source: .catalogue, quick: arguments.has(quick), seed: try CommonOptions.seed(arguments),
            repetitions: try repetitions(arguments), windowMilliseconds: try windowMilliseconds(arguments),
            filter: try filter(arguments))
        plan.allowDebugBuild = arguments.has(allowDebug)
        return plan
    }

    package static func repetitions(_ arguments: ParsedArguments) throws(CommandLineError) -> Int {
        try arguments.value(repetitions, default: 5, expecting: "an integer from 1 to 1000") {
            CommonOptions.integer($0).flatMap { (1...1000).contains($0) ? $0 : nil }
        }
    }

    /// `--forks`, or `nil` for the sizing's default.
    static func forks(_ arguments: ParsedArguments) throws(CommandLineError) -> Int? {
        guard arguments.value(forks) != nil else { return nil }
        return try arguments.value(forks, default: 1, expecting: "an integer from 1 to 64") {
            CommonOptions.integer($0).flatMap { (1...64).contains($0) ? $0 : nil }
        }
    }

    /// `--reference`, checked against the catalogue: known ids of exact strategies.
    static func reference(_ arguments: ParsedArguments) throws(CommandLineError) -> TimingReference {
        guard let text = arguments.value(reference) else { return .published }
        guard let reference = TimingReference(text: text) else {
            throw CommandLineError(
                .badValue, "invalid value '\(text)' for '--reference': expected published, none, or window=ID,consumed=ID")
        }
        do {
            try reference.validate(in: .linked)
        } catch {
            throw CommandLineError(.badValue, "invalid value '\(text)' for '--reference': \(error.description)")
        }
        return reference
    }

    package static func windowMilliseconds(_ arguments: ParsedArguments) throws(CommandLineError) -> Double {
        try arguments.value(windowMilliseconds, default: 500, expecting: "a number of milliseconds from 0 to 3600000") {
            CommonOptions.decimal($0).flatMap { $0.isFinite && $0 >= 0 && $0 <= 3_600_000 ? $0 : nil }
        }
    }

    /// Where reports go without `--out`: not `Reports/`, the committed reference run, which the
    /// tests compare with the README; a run on another machine must not rewrite it by default.
    static let defaultOutputDirectory = "dedupe-bench-reports"

    static func outputDirectory(_ arguments: ParsedArguments) throws(CommandLineError) -> URL {
        let path = arguments.value(out) ?? defaultOutputDirectory
        guard !path.isEmpty else { throw CommandLineError(.badValue, "invalid value '' for '--out': expected a directory") }
        // Checked before the run, so a long benchmark never ends in an unusable destination. The
        // reports replace the directory as a whole (`DirectoryPublication`), so its parent must
        // take the staging directory.
        do {
            try DirectoryPublication.probe(URL(fileURLWithPath: path, isDirectory: true))
        } catch {
            throw CommandLineError(.badValue, "invalid value '\(path)' for '--out': \(error.description)")
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// The file `--decisions` names, created (or truncated) with its header; `nil` when the option
    /// is absent.
    static func decisionsFile(_ arguments: ParsedArguments) throws(CommandLineError) -> DecisionsFile? {
        guard let path = arguments.value(decisions) else { return nil }
        do {
            return try DecisionsFile(path: path)
        } catch {
            throw CommandLineError(.badValue, "invalid value '\(path)' for '--decisions': \(error.description)")
        }
    }

    static func formats(_ arguments: ParsedArguments) throws(CommandLineError) -> Set<ReportFormat> {
        guard let text = arguments.value(format) else { return Set(ReportFormat.allCases) }
        var formats: Set<ReportFormat> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let format = ReportFormat(rawValue: String(name)) else {
                throw CommandLineError(
                    .badValue, "invalid value '\(name)' in '--format': expected csv, md, json or svg")
            }
            formats.insert(format)
        }
        return formats
    }

    /// `--filter window=a,b --filter mode=c` → a `RunFilter`, with the ids checked against the
    /// catalogue so a typo fails before anything runs. A strategy's type id registered under
    /// several entries (`recent-ids`) is ambiguous and lists them; registered once, it names that
    /// entry. A case id (`case=…`) is checked by the harness once the cases exist.
    ///
    /// `KEY=/REGEX/` selects the catalogue ids with a match of the pattern anywhere in them, and
    /// refuses a pattern that matches none; `case=/REGEX/` (or `/REGEX/` alone) keeps the cases
    /// whose id has a match, checked by the harness like a case id.
    package static func filter(_ arguments: ParsedArguments) throws(CommandLineError) -> RunFilter {
        var filter = RunFilter()
        for text in arguments.values(Self.filter) {
            let clause = try FilterClause(text)
            guard let key = RunFilter.Key(rawValue: clause.key) else {
                throw clause.invalid(
                    "unknown key '\(clause.key)' (\(RunFilter.Key.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            let known: [Catalogue.Entry]
            switch key {
            case .window: known = Catalogue.windows
            case .consumed: known = Catalogue.consumedSets
            case .workload: known = Catalogue.workloads
            case .mode: known = Catalogue.modes
            case .case:
                if let pattern = clause.pattern {
                    filter.casePatterns = (filter.casePatterns ?? []) + [pattern]
                } else {
                    filter[key] = (filter[key] ?? []) + clause.ids
                }
                continue
            }
            if let pattern = clause.pattern {
                guard let regex = try? Regex(pattern) else { throw clause.invalid("not a regular expression") }
                let matched = known.map(\.id).filter { $0.firstMatch(of: regex) != nil }
                guard !matched.isEmpty else {
                    throw clause.invalid("/\(pattern)/ matches no \(key.rawValue) id (see 'dedupe-bench list')")
                }
                filter[key] = (filter[key] ?? []) + matched.filter { !(filter[key] ?? []).contains($0) }
                continue
            }
            let ids = try clause.ids.map { id throws(CommandLineError) in
                if known.contains(where: { $0.id == id }) { return id }
                let entries = known.filter { $0.typeID == id }
                if entries.count == 1 { return entries[0].id }
                if entries.count > 1 {
                    throw clause.invalid("'\(id)' is ambiguous: " + entries.map(\.id).joined(separator: ", "))
                }
                throw clause.invalid("unknown \(key.rawValue) '\(id)' (see 'dedupe-bench list')")
            }
            filter[key] = (filter[key] ?? []) + ids
        }
        return filter
    }

    /// Runs the harness with the progress display on stderr (none with `--quiet`); harness
    /// refusals become exit 2. Consumes the plan, so a replayed trace's events can be released
    /// once the harness has built its columns.
    static func execute(_ plan: consuming RunPlan, console: Console, arguments: ParsedArguments) throws(CommandLineError) -> RunResults {
        let quiet = arguments.has(quiet)
        var display = ProgressDisplay(isTerminal: console.errorIsTerminal, width: console.errorColumns)
        var lastElapsed = 0.0
        defer {
            if !quiet, let text = display.finish(elapsedSeconds: lastElapsed) { console.error(text) }
        }
        do {
            let results = try BenchmarkRunner.run(consume plan) { progress in
                lastElapsed = progress.elapsedSeconds
                if !quiet, let text = display.update(progress) { console.error(text) }
            }
            lastElapsed = results.environment.runSeconds ?? lastElapsed
            if !quiet, let text = display.finish(elapsedSeconds: lastElapsed) { console.error(text) }
            for workload in results.workloads ?? [] {
                if let limit = workload.referenceWindowLimit {
                    console.error("dedupe-bench: note: \(OneLine.escaped(limit.note(workload: workload.id)))\n")
                }
            }
            let workloadEvents = Dictionary((results.workloads ?? []).map { ($0.id, $0.events) }, uniquingKeysWith: { a, _ in a })
            for result in results.cases {
                if let note = result.snapshot?.prefixNote(case: result.id.text, workloadEvents: workloadEvents[result.workload] ?? 0) {
                    console.error("dedupe-bench: note: \(OneLine.escaped(note))\n")
                }
            }
            return results
        } catch let error as MeasurementError {
            throw CommandLineError(.runFailed, error.description)
        } catch {
            throw CommandLineError(.runFailed, "\(error)")
        }
    }

    /// The decisions of `report.html`'s diff view on the device workloads: `plan` again for the
    /// sampled cases only (``HTMLReport/sampledChoices(_:)``), correctness only, so the run's own
    /// pass keeps no events and the sample follows the pick. Seeded like the run, so it sees the
    /// same events.
    static func sampleDecisions(
        _ plan: RunPlan, results: RunResults, recommendation: Recommendation
    ) throws(CommandLineError) -> DecisionDiffData? {
        let choices = HTMLReport.sampledChoices(recommendation)
        guard choices.count >= 2 else { return nil }
        var sample = plan
        sample.filter.cases = choices
        sample.filter.casePatterns = nil
        sample.measureTiming = false
        sample.measureMemory = false
        sample.runSweeps = false
        let sink = DecisionSample(cases: choices, workloads: results.deviceWorkloadIDs)
        sample.decisionSink = sink
        do {
            _ = try BenchmarkRunner.run(sample) { _ in }
        } catch {
            throw CommandLineError(.runFailed, "cannot sample the decisions for report.html: \(error)")
        }
        return sink.data()
    }

    /// Writes the reports and names the directory on stderr.
    static func writeReports(
        _ results: RunResults, recommendation: Recommendation, decisions: DecisionDiffData? = nil, formats: Set<ReportFormat>,
        to directory: URL, console: Console
    ) throws(CommandLineError) {
        do {
            let urls = try ReportSet.write(
                results, formats: formats, recommendation: recommendation, decisions: decisions, to: directory
            ) { warning in
                console.error("dedupe-bench: warning: \(OneLine.escaped(warning))\n")
            }
            console.error("wrote \(urls.count) file(s) to \(OneLine.escaped(directory.path))\n")
        } catch let error as PublicationError {
            throw CommandLineError(.unreadableFile, "cannot write reports to '\(directory.path)': \(error.description)")
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write reports to '\(directory.path)': \(error.localizedDescription)")
        }
    }
}
