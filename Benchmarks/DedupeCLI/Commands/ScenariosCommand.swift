import DedupeCommandLine
import DedupeHarness
import DedupeReports
import DedupeWorkloads
import Foundation

extension Subcommands {
    static let scenarios = Subcommand(
        name: "scenarios", summary: "Print the mode × scenario matrix of the published situations.", positionals: "",
        discussion: """
        Runs every published situation, NavigationStack case and real-world mechanism in every mode
        (correctness only, no timing) and prints blocked / passed / missed per mode, with each
        scenario's tag (device or stress). Also writes scenarios.md to --out.
        """,
        options: [CommonOptions.seed, SharedOptions.windowMilliseconds, SharedOptions.out, SharedOptions.quiet]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        let ids = ScenarioCatalogue.all
            .filter { [.publishedSituation, .navigationStack, .realWorld].contains($0.category) }.map(\.id)
        let plan = RunPlan(
            source: .catalogue, quick: false, seed: try CommonOptions.seed(arguments), repetitions: 1,
            windowMilliseconds: try SharedOptions.windowMilliseconds(arguments),
            filter: RunFilter(workloads: ids), measureTiming: false, measureMemory: false, runSweeps: false)
        let directory = try SharedOptions.outputDirectory(arguments)
        let results = try SharedOptions.execute(plan, console: console, arguments: arguments)
        let matrix = ScenarioMatrix.make(from: results)
        let markdown = "# Mode × scenario matrix\n\n" + matrix.markdown()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try AtomicFile.write(Data(markdown.utf8), to: directory.appendingPathComponent("scenarios.md"))
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write '\(directory.path)/scenarios.md': \(error.localizedDescription)")
        }
        console.output(matrix.plainText())
        return 0
    }
}
