import Foundation
import Testing
@testable import DedupeCLI
@testable import DedupeCommandLine
@testable import DedupeFuzz
@testable import DedupeMaintenance

/// One job per room: `dedupe-bench` holds the user's verbs, and the maintainer verbs live in
/// `dedupe-fuzz` and `dedupe-maintain`, which follow the same conventions.
@Suite struct MaintainerToolsTests {
    static let maintainerVerbs = ["fuzz", "facade-overhead", "recorder-overhead", "live-set-sweep"]

    @Test func theUserToolListsAndDispatchesOnlyTheUsersVerbs() {
        #expect(DedupeCommand.tool.subcommand(named: "__fuzz") == nil)
        let overview = DedupeCommand.tool.overview()
        for verb in Self.maintainerVerbs {
            #expect(!overview.contains(verb), "\(verb)")
            #expect(DedupeCommand.tool.subcommand(named: verb) == nil && DedupeCommand.tool.subcommand(named: "__" + verb) == nil)
        }
        for verb in ["run", "list", "scenarios", "policies", "verify", "replay", "export-trace", "compare"] {
            #expect(overview.contains("\n  \(verb) "), "\(verb)")
        }
    }

    @Test(arguments: ["__fuzz", "__facade-overhead", "__recorder-overhead", "__live-set-sweep"])
    func aMovedVerbIsUnknownToTheUserTool(_ verb: String) {
        let console = RecordingConsole()
        #expect(DedupeCommand.main(arguments: [verb], console: console.console) == 2)
        #expect(console.errorLines == ["dedupe-bench: error: unknown subcommand '\(verb)' (see 'dedupe-bench --help')"])
    }

    @Test func theMaintenanceToolListsItsVerbs() {
        let overview = MaintenanceCommand.tool.overview()
        for verb in ["facade-overhead", "recorder-overhead", "live-set-sweep"] {
            #expect(overview.contains("\n  \(verb) "), "\(verb)")
        }
        #expect(overview.contains("USAGE: dedupe-maintain <subcommand> [options]"))
    }

    /// Refused before anything is timed, in one line naming the tool.
    @Test(arguments: ["0", "abc", "8,", "2000000"])
    func aBadLiveSetSizeIsRefused(_ value: String) {
        let console = RecordingConsole()
        #expect(MaintenanceCommand.tool.main(arguments: ["live-set-sweep", "--live", value], console: console.console) == 2)
        #expect(console.errorLines == [
            "dedupe-maintain: error: invalid value '\(value)' for '--live': expected a comma-separated list of integers from 1 to 1048576",
        ])
    }

    @Test func theFuzzerIsOneCommandThatNeedsItsOutputDirectory() throws {
        let help = RecordingConsole()
        #expect(FuzzCommand.tool.main(arguments: ["--help"], console: help.console) == 0)
        #expect(help.printed.contains("USAGE: dedupe-fuzz [options]"))
        #expect(help.printed.contains("--bench <PATH>"))
        let missing = RecordingConsole()
        #expect(FuzzCommand.tool.main(arguments: ["--seed", "1"], console: missing.console) == 2)
        #expect(missing.errorLines == ["dedupe-fuzz: error: missing option '--out DIR'"])
        let outcome = try BinaryRunner.run(tool: "dedupe-fuzz", ["--bench", "/nonexistent/dedupe-bench", "--out", "/tmp"])
        #expect(outcome.status == 2)
        #expect(outcome.error == "dedupe-fuzz: error: no dedupe-bench executable at '/nonexistent/dedupe-bench' (build the package, or pass '--bench PATH')\n")
    }
}
