import DedupeCommandLine
import DedupeLifecycle
import DedupeReports
import Foundation

extension Subcommands {
    static let policies = Subcommand(
        name: "policies", summary: "Simulate the router and NavigationStack policies: the scenario × variant matrix.",
        positionals: "",
        discussion: """
        Runs every lifecycle scenario under the published policy and under each variant that flips one
        switch (correctness only, simulated time; scenarios with relaunches under every persistence),
        prints the matrix, the fix checks and the published policy's remaining failures by cause, and
        writes policies.csv, policy-causes.csv, policies.md and the fetch-latency chart to --out.
        With --script FILE, runs that one script (the format is in Guides/Policies.md § Script files,
        e.g. a counterexample 'verify' printed) under each variant, prints its rows and causes, and
        writes files only when --out is given. A malformed script fails with 'FILE:LINE: reason'.
        Examples:
          dedupe-bench policies --out /tmp/policies
          dedupe-bench policies --fetch-median-ms 600 --filter variant=published,consume-after-success
          dedupe-bench policies --script counterexample.script --filter variant=consume-after-success
        """,
        options: [PolicyOptions.seedOption, PolicyOptions.fetchMedian, PolicyOptions.filter, PolicyOptions.script, SharedOptions.out]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        let seed = try CommonOptions.seed(arguments)
        let configuration = try PolicyOptions.configuration(arguments)
        let (scenarios, variants) = try PolicyOptions.filter(arguments)
        if let path = arguments.value(PolicyOptions.script) {
            if scenarios != nil { throw CommandLineError(.badValue, "'--filter scenario=...' does not apply with '--script'") }
            return try PolicyOptions.runScript(
                path: path, seed: seed, configuration: configuration, variants: variants, arguments: arguments, console: console)
        }
        let directory = try SharedOptions.outputDirectory(arguments)
        let policies = try PolicyOptions.run(seed: seed, configuration: configuration, scenarios: scenarios, variants: variants)
        try PolicyOptions.write(policies, to: directory, console: console)
        console.output(PolicyReport.plainText(policies))
        return 0
    }
}

/// Options and parsing of `policies`, and the policy phase of `run`.
enum PolicyOptions {
    static let seedOption = CommonOptions.seed
    static let fetchMedian = OptionSpec(
        "fetch-median-ms", value: "MS", help: "Median detail-fetch latency in ms; the p99 scales with it (default 150).")
    static let filter = OptionSpec(
        "filter", value: "KEY=ID,...", repeatable: true, help: "Restrict to ids; KEY is scenario or variant.")
    static let script = OptionSpec("script", value: "FILE", help: "Run this lifecycle script instead of the scenarios.")

    /// Writes the policy files; each replaces its previous version atomically, like
    /// `scenarios.md`, and files of other commands in the directory stay. Rendered before
    /// anything is written.
    static func write(_ policies: PolicyResults, to directory: URL, console: Console) throws(CommandLineError) {
        let files = PolicyReport.files(policies, formats: [.csv, .md, .svg])
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files { try AtomicFile.write(file.data, to: directory.appendingPathComponent(file.name)) }
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write the policy reports to '\(directory.path)': \(error.localizedDescription)")
        }
        console.error("wrote \(files.count) file(s) to \(directory.path)\n")
    }

    /// `--script FILE`: parse, run under each variant, print; a task end that names a task not
    /// running under some variant is a warning naming its line (scripted task numbers follow
    /// the variant the script was written for).
    static func runScript(
        path: String, seed: UInt64, configuration: LifecycleConfiguration, variants: [String]?, arguments: ParsedArguments,
        console: Console
    ) throws(CommandLineError) -> Int32 {
        if let problem = FileErrors.unreadable(path) { throw CommandLineError(.unreadableFile, "cannot read '\(path)': \(problem)") }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandLineError(.unreadableFile, "cannot read '\(path)': not UTF-8 text")
        }
        let file: LifecycleScriptFile
        do {
            file = try LifecycleScriptFile(parsing: text, fileName: path)
        } catch {
            throw CommandLineError(.malformedInput, error.description)
        }
        var configured = configuration
        configured.persistence = file.persistence ?? .memory
        let directory = try arguments.value(SharedOptions.out).map { _ throws(CommandLineError) in try SharedOptions.outputDirectory(arguments) }
        let policies: PolicyResults
        do {
            policies = try PolicyRun.run(script: file.script, seed: seed, configuration: configured, variants: variants)
            for variant in policies.rows.map(\.variant) {
                let outcome = try PolicyRun.outcome(file.script, policy: variant.policy, configuration: configured, seed: seed)
                if let index = outcome.firstInvalidTaskEnd {
                    let input = file.script.inputs[index]
                    console.error("dedupe-bench: warning: \(path):\(file.inputLines[index]): under \(variant.rawValue), task "
                        + "\(input.task + 1) is not running here; the line is ignored\n")
                }
            }
        } catch let error as LifecycleConfigurationError {
            throw CommandLineError(.badValue, error.description)
        } catch {
            throw CommandLineError(.badValue, "\(error)")
        }
        if let directory { try write(policies, to: directory, console: console) }
        console.output(PolicyReport.scriptText(policies))
        return 0
    }

    static func configuration(_ arguments: ParsedArguments) throws(CommandLineError) -> LifecycleConfiguration {
        let defaults = LifecycleConfiguration()
        let median = try arguments.value(fetchMedian, default: defaults.fetchMedianMilliseconds,
                                         expecting: "a positive number of milliseconds") { Double($0) }
        let configuration = defaults.withFetchMedian(median)
        do {
            try configuration.validate()
        } catch {
            throw CommandLineError(.badValue, "invalid value '\(median)' for '--fetch-median-ms': \(error.description)")
        }
        return configuration
    }

    /// `--filter scenario=a,b --filter variant=c` → the selected ids (`nil`: all).
    static func filter(_ arguments: ParsedArguments) throws(CommandLineError) -> (scenarios: [String]?, variants: [String]?) {
        try filter(arguments, scenarios: LifecycleScenarioCatalogue.all.map(\.id))
    }

    /// The same, with `scenarios` the known scenario ids.
    static func filter(
        _ arguments: ParsedArguments, scenarios known: [String]
    ) throws(CommandLineError) -> (scenarios: [String]?, variants: [String]?) {
        let knownScenarios = known
        var scenarios: [String]?
        var variants: [String]?
        for text in arguments.values(filter) {
            let clause = try FilterClause(text)
            let known: [String]
            switch clause.key {
            case "scenario": known = knownScenarios
            case "variant": known = PolicyVariant.allCases.map(\.rawValue)
            default: throw clause.invalid("unknown key '\(clause.key)' (scenario, variant)")
            }
            if let unknown = clause.ids.first(where: { !known.contains($0) }) {
                throw clause.invalid("unknown \(clause.key) '\(unknown)' (known: \(known.joined(separator: ", ")))")
            }
            if clause.key == "scenario" { scenarios = (scenarios ?? []) + clause.ids } else { variants = (variants ?? []) + clause.ids }
        }
        return (scenarios, variants)
    }

    /// Runs the matrix; a bad configuration becomes exit 2.
    static func run(
        seed: UInt64, configuration: LifecycleConfiguration = LifecycleConfiguration(), scenarios: [String]? = nil,
        variants: [String]? = nil, scale: Double = 1
    ) throws(CommandLineError) -> PolicyResults {
        do {
            return try PolicyRun.run(seed: seed, configuration: configuration, scenarios: scenarios, variants: variants, scale: scale)
        } catch let error as LifecycleConfigurationError {
            throw CommandLineError(.badValue, error.description)
        } catch {
            throw CommandLineError(.runFailed, "\(error)")
        }
    }
}
