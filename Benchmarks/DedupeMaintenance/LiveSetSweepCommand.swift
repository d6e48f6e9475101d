import DedupeMeasurement
import DedupeCLI
import DedupeCommandLine
import DedupeHarness
import DedupeReports

extension MaintenanceCommand {
    static let liveSetSizes = OptionSpec("live", value: "N,...", help: "Live-set sizes to sweep (default: the sizing's).")

    /// Only the live-set speed sweep, for comparing windows without a whole run. Prints
    /// the points as CSV, then `hash-deque`'s ratios to its references in this run.
    static let liveSetSweep = Subcommand(
        name: "live-set-sweep", summary: "Time only the window-live-set sweeps (0% and 50% repeats).", positionals: "",
        discussion: """
        Runs the live-set sweep as 'run' does (release build; windows interleaved per point), without the
        cases, the memory pass or the other sweeps; writes no reports. Prints dimension,x,strategy,ns_per_event,events
        rows, then hash-deque / ring-buffer at 8 live, hash-deque / direct-mapped-window,
        stdlib-dictionary-window / hash-deque, and stdlib-dictionary-window / direct-mapped-window at each size: the
        last is the most any window can lead the baseline by, since direct-mapped-window is one slot read.
        """,
        options: [
            SharedOptions.quick, SharedOptions.filter, CommonOptions.seed, SharedOptions.repetitions,
            SharedOptions.windowMilliseconds, SharedOptions.allowDebug, SharedOptions.quiet,
            liveSetSizes,
        ]
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        let plan = try SharedOptions.cataloguePlan(arguments)
        // Empty when not given: a given list has at least one size. (Converting to `[Int]?` would
        // read the conversion's `nil` as an accepted value.)
        let sizes: [Int] = try arguments.value(liveSetSizes, default: [], expecting: "a comma-separated list of integers from 1 to 1048576") {
            text -> [Int]? in
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            let sizes = fields.compactMap { CommonOptions.integer(String($0)) as Int? }
            return sizes.count == fields.count && sizes.allSatisfy { (1...(1 << 20)).contains($0) } ? sizes : nil
        }
        let points: [SweepPoint]
        do {
            points = try BenchmarkRunner.runLiveSetSweep(plan, liveSetSizes: sizes.isEmpty ? nil : sizes) { progress in
                if !arguments.has(SharedOptions.quiet) { console.error("\(progress.caseLabel)\n") }
            }
        } catch let error as MeasurementError {
            throw CommandLineError(.runFailed, error.description)
        } catch {
            throw CommandLineError(.runFailed, "\(error)")
        }
        console.output(LiveSetSweepText.render(points))
        return 0
    }
}

/// `live-set-sweep`'s output.
enum LiveSetSweepText {
    static func render(_ points: [SweepPoint]) -> String {
        var text = "dimension,x,strategy,ns_per_event,events\n"
        for point in points {
            text += "\(point.dimension.rawValue),\(Int(point.x)),\(point.strategy),\(NumberText.fixed(point.nanosecondsPerEvent ?? .nan, 2)),\(point.events)\n"
        }
        func ns(_ dimension: SweepDimension, _ strategy: String, _ x: Double) -> Double? {
            points.first { $0.dimension == dimension && $0.strategy == strategy && $0.x == x }?.nanosecondsPerEvent
        }
        text += "\ndimension,x,hash-deque/ring-buffer@8,hash-deque/direct-mapped-window,stdlib/hash-deque,stdlib/direct-mapped-window\n"
        for dimension in SweepDimension.liveSetRepeatShares.map(\.dimension) {
            let sizes = points.filter { $0.dimension == dimension && $0.strategy == "hash-deque" }.map(\.x)
            for x in sizes {
                guard let hashDeque = ns(dimension, "hash-deque", x) else { continue }
                let ratios = [
                    ns(dimension, "ring-buffer", 8).map { hashDeque / $0 },
                    ns(dimension, "direct-mapped-window", x).map { hashDeque / $0 },
                    ns(dimension, "stdlib-dictionary-window", x).map { $0 / hashDeque },
                    ns(dimension, "stdlib-dictionary-window", x).flatMap { baseline in
                        ns(dimension, "direct-mapped-window", x).map { baseline / $0 }
                    },
                ]
                text += "\(dimension.rawValue),\(Int(x))," + ratios.map { $0.map { NumberText.fixed($0, 3) } ?? "" }.joined(separator: ",") + "\n"
            }
        }
        return text
    }
}
