import DedupeHarness
import DedupeReports
import Foundation

extension Subcommands {
    static let policies = Subcommand(
        name: "policies", summary: "Simulate the router and NavigationStack policies: the scenario × variant matrix.",
        positionals: "",
        discussion: """
        Runs every lifecycle scenario under the published policy and under each variant that turns one
        switch off (correctness only, simulated time), prints the matrix, and writes policies.csv,
        policies.md and the fetch-latency chart to --out. See Guides/Policies.md.
        Examples:
          dedupe-bench policies --out /tmp/policies
          dedupe-bench policies --fetch-median-ms 600 --filter variant=published,consume-after-success
        """,
        options: [PolicyOptions.seedOption, PolicyOptions.fetchMedian, PolicyOptions.filter, SharedOptions.out]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        let seed = try SharedOptions.seed(arguments)
        let configuration = try PolicyOptions.configuration(arguments)
        let (scenarios, variants) = try PolicyOptions.filter(arguments)
        let directory = try SharedOptions.outputDirectory(arguments)
        let policies = try PolicyOptions.run(seed: seed, configuration: configuration, scenarios: scenarios, variants: variants)
        let files = PolicyReport.files(policies, formats: [.csv, .md, .svg])
        // Rendered before anything is written; each file replaces its previous version atomically,
        // like `scenarios.md`, and files of other commands in the directory stay.
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for file in files { try AtomicFile.write(file.data, to: directory.appendingPathComponent(file.name)) }
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write the policy reports to '\(directory.path)': \(error.localizedDescription)")
        }
        console.error("wrote \(files.count) file(s) to \(directory.path)\n")
        console.output(PolicyReport.plainText(policies))
        return 0
    }
}

/// Options and parsing of `policies`, and the policy phase of `run`.
enum PolicyOptions {
    static let seedOption = SharedOptions.seed
    static let fetchMedian = OptionSpec(
        "fetch-median-ms", value: "MS", help: "Median detail-fetch latency in ms; the p99 scales with it (default 150).")
    static let filter = OptionSpec(
        "filter", value: "KEY=ID,...", repeatable: true, help: "Restrict to ids; KEY is scenario or variant.")

    static func configuration(_ arguments: ParsedArguments) throws(CommandLineError) -> LifecycleConfiguration {
        let defaults = LifecycleConfiguration()
        let median = try arguments.value("fetch-median-ms", default: defaults.fetchMedianMilliseconds,
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
        var scenarios: [String]?
        var variants: [String]?
        for text in arguments.values["filter"] ?? [] {
            guard let equals = text.firstIndex(of: "=") else {
                throw CommandLineError(.badValue, "invalid value '\(text)' for '--filter': expected KEY=ID[,ID...]")
            }
            let key = String(text[..<equals])
            let ids = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !ids.contains(where: \.isEmpty) else {
                throw CommandLineError(.badValue, "invalid value '\(text)' for '--filter': empty id")
            }
            let known: [String]
            switch key {
            case "scenario": known = LifecycleScenarioCatalogue.all.map(\.id)
            case "variant": known = PolicyVariant.allCases.map(\.rawValue)
            default:
                throw CommandLineError(.badValue, "invalid value '\(text)' for '--filter': unknown key '\(key)' (scenario, variant)")
            }
            if let unknown = ids.first(where: { !known.contains($0) }) {
                throw CommandLineError(
                    .badValue, "invalid value '\(text)' for '--filter': unknown \(key) '\(unknown)' (known: \(known.joined(separator: ", ")))")
            }
            if key == "scenario" { scenarios = (scenarios ?? []) + ids } else { variants = (variants ?? []) + ids }
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
