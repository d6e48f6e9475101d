import DedupeCommandLine
import DedupeHarness
import Foundation
import PushDedupe

/// `dedupe-fuzz stores`: the store-file fuzzer (`Guides/CLI.md`, *`dedupe-fuzz`*). A tool of
/// its own with the one verb, so that `dedupe-fuzz` without it keeps its options and help.
enum StoreFuzzCommand {
    static let tool = CommandLineTool(
        name: "dedupe-fuzz", summary: stores.summary, subcommands: [stores], defaultSubcommand: nil, introduction: "",
        exitCodes: "Exit codes: 0 no finding, 1 a finding, 2 usage or input error.")

    static let stores = Subcommand(
        name: "stores", summary: "Fuzz the store designs' files with seeded damage, through the adoption API.", positionals: "",
        discussion: """
        Input i of a design is a pure function of --seed, the design and i: a store of 1 to 16 consumed ids written
        by a deduplicator, then one to three mutations (bit flips, truncation, appended junk, swapped records,
        header edits, zeroed ranges or pages, a ghost record past a mapped journal's count; or a directory, a
        dangling symlink, a symlink to the store elsewhere, a fifo, mode 000 at the path). A deduplicator restores
        it and consumes one push, a second restores it again. Inputs run in batches in child processes of this
        executable with a timeout per input. Findings: crash, hang, invented-id, lost-id (an id whose record was
        undamaged), unread-file-modified, copies-piled-up, new-push-lost, misread-version. Writes summary.txt,
        inputs.tsv and findings/ to --out. Exit 1 when there is a finding.
        """,
        options: [
            StoreFuzzOptions.design, CommonOptions.seed, StoreFuzzOptions.inputs, StoreFuzzOptions.seconds, StoreFuzzOptions.timeout,
            StoreFuzzOptions.out, StoreFuzzOptions.childInputs,
        ]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        let seed = try CommonOptions.seed(arguments)
        let designs = try designs(arguments.value(StoreFuzzOptions.design))
        let directory = try FuzzRound.directory(arguments.value(StoreFuzzOptions.out))
        if let range = try childInputs(arguments.value(StoreFuzzOptions.childInputs)) {
            guard designs.count == 1 else { throw CommandLineError(.badValue, "'--child-inputs' needs one '--design'") }
            do {
                try StoreFuzzBatch.run(
                    seed: seed, design: designs[0], indices: range,
                    work: URL(fileURLWithPath: directory + "/work/" + designs[0].rawValue))
            } catch {
                throw CommandLineError(.runFailed, "stores: \(error)")
            }
            return 0
        }
        let round = StoreFuzzRound(
            seed: seed, designs: designs,
            inputs: try arguments.value(StoreFuzzOptions.inputs, default: 200, expecting: "an integer from 1 to 1000000") {
                (CommonOptions.integer($0) as Int?).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            },
            seconds: try arguments.value(StoreFuzzOptions.seconds, default: .infinity, expecting: "a number of seconds above 0") {
                CommonOptions.decimal($0).flatMap { $0 > 0 ? $0 : nil }
            },
            timeout: try arguments.value(StoreFuzzOptions.timeout, default: 10, expecting: "a number of seconds from 0.1 to 3600") {
                CommonOptions.decimal($0).flatMap { (0.1...3_600).contains($0) ? $0 : nil }
            },
            directory: directory, executable: ChildProcess.currentExecutablePath())
        let (summary, findings) = try round.run(console: console)
        console.output(summary)
        return findings > 0 ? 1 : 0
    }

    /// `--design`: one design's report id, or `all` (the default) for the four in their order.
    static func designs(_ value: String?) throws(CommandLineError) -> [DedupeStore.Design] {
        guard let value, value != "all" else { return DedupeStore.Design.allCases }
        guard let design = DedupeStore.Design(rawValue: value) else {
            let names = DedupeStore.Design.allCases.map(\.rawValue).joined(separator: ", ")
            throw CommandLineError(.badValue, "invalid value '\(value)' for '--design': expected one of \(names), or all")
        }
        return [design]
    }

    /// `--child-inputs FIRST,COUNT`, the parent's request to a child.
    static func childInputs(_ value: String?) throws(CommandLineError) -> Range<Int>? {
        guard let value else { return nil }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { CommonOptions.integer(String($0)) as Int? }
        guard parts.count == 2, let first = parts[0], let count = parts[1], count > 0, first <= Int.max - count else {
            throw CommandLineError(.badValue, "invalid value '\(value)' for '--child-inputs': expected FIRST,COUNT")
        }
        return first..<(first + count)
    }
}

/// Options of `dedupe-fuzz stores`.
enum StoreFuzzOptions {
    static let design = OptionSpec(
        "design", value: "D", help: "snapshot, journal, mapped-journal, sqlite, or all (default all).")
    static let inputs = OptionSpec("inputs", value: "N", help: "Inputs per design, 1 to 1000000 (default 200).")
    static let seconds = OptionSpec("seconds", value: "S", help: "Stop a design after the input that passes S seconds (default: no limit).")
    static let timeout = OptionSpec("timeout", value: "S", help: "Seconds one input may run before it counts as a hang (default 10).")
    static let out = OptionSpec("out", value: "DIR", help: "Directory for the summary, the inputs table and the findings (required).")
    static let childInputs = OptionSpec(
        "child-inputs", value: "FIRST,COUNT", help: "Internal: run these inputs of one design in this process (the round's children).")
}
