import DedupeCommandLine
import DedupeLifecycle
import DedupeReports
import Foundation

extension Subcommands {
    static let verify = Subcommand(
        name: "verify",
        summary: "Check every ordering of each lifecycle scenario's episode against the policies' properties.",
        positionals: "",
        discussion: """
        For each lifecycle scenario, enumerates every ordering of its episode (deliveries, host and lifecycle
        events, task ends in success or failure, the user going back), with each payload's gap short or long
        against the window, under every variant (and every persistence for episodes with a relaunch). Prints
        the orderings explored and the orderings violating each property per row, the published policy's
        violations by rule, and for each switch the shortest counterexample, as a script that
        'dedupe-bench policies --script FILE' replays. Then every ordering of two checkout taps, two
        completions, a cancel and a push through the router, under its defaults and with each switch off.
        Exit code 1 when the verdict fails: a published violation no trade-off explains, a switch without a
        counterexample, or an action ordering violating under the router's defaults. See Guides/Policies.md § Verify.
        Examples:
          dedupe-bench verify
          dedupe-bench verify --filter scenario=retap-after-window --counterexamples /tmp/cx
        """,
        options: [PolicyOptions.filter, VerifyOptions.backs, VerifyOptions.counterexamples]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        let (scenarios, variants) = try VerifyOptions.filter(arguments)
        let backs = try VerifyOptions.backs(arguments)
        let directory = arguments.value(VerifyOptions.counterexamples).map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let directory, let problem = VerifyOptions.unwritable(directory) {
            throw CommandLineError(.badValue, "invalid value '\(directory.path)' for '--counterexamples': \(problem)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let results: VerifyResults
        let actions: ActionOrderingResults
        do {
            results = try VerifyRun.run(scenarios: scenarios, variants: variants, backs: backs)
            actions = try ActionOrderingCheck.run()
        } catch let error as LifecycleSelectionError {
            throw CommandLineError(.badValue, "\(error)")
        } catch {
            throw CommandLineError(.runFailed, "\(error)")
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if let directory {
            let files = VerifyReport.counterexampleFiles(results.verdict)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for file in files { try AtomicFile.write(Data(file.text.utf8), to: directory.appendingPathComponent(file.name)) }
            } catch {
                throw CommandLineError(.unreadableFile, "cannot write the counterexamples to '\(directory.path)': \(error.localizedDescription)")
            }
            console.error("wrote \(files.count) counterexample script(s) to \(directory.path)\n")
        }
        console.output(VerifyReport.text(results, actions: actions, seconds: seconds))
        return results.verdict.holds && actions.holds ? 0 : 1
    }
}

/// Options and parsing of `verify`; its `--filter` is `policies`'s.
enum VerifyOptions {
    static let backs = OptionSpec("backs", value: "N", help: "Times the user may go back, 0 to 3, for every episode (default: per episode).")
    static let counterexamples = OptionSpec(
        "counterexamples", value: "DIR", help: "Write the verdict's counterexamples there as script files.")

    static func filter(_ arguments: ParsedArguments) throws(CommandLineError) -> (scenarios: [String]?, variants: [String]?) {
        try PolicyOptions.filter(arguments, scenarios: LifecycleShapeCatalogue.all.map(\.scenario))
    }

    static func backs(_ arguments: ParsedArguments) throws(CommandLineError) -> Int? {
        guard arguments.value(backs) != nil else { return nil }
        return try arguments.value(backs, default: 0, expecting: "an integer from 0 to 3") { text -> Int? in
            guard let value: Int = CommonOptions.integer(text), (0...3).contains(value) else { return nil }
            return value
        }
    }

    /// Why `directory` cannot take the files, or `nil`.
    static func unwritable(_ directory: URL) -> String? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            return isDirectory.boolValue ? nil : "not a directory"
        }
        let parent = directory.deletingLastPathComponent().path
        return FileManager.default.isWritableFile(atPath: parent) ? nil : "its parent is not writable"
    }
}
