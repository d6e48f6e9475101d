import DedupeWorkloads
import DedupeCommandLine
import DedupeReports
import Foundation
import PushDedupe

/// The parent side of `dedupe-fuzz stores`: per design, runs the inputs in batches of child
/// processes of this executable (``StoreFuzzBatch``), watches their progress lines, and ends a
/// child whose input runs past the timeout (a hang) or that dies (a crash), then carries on from
/// the next input in a new child. Writes `summary.txt`, `inputs.tsv` and `findings/` to the
/// directory.
struct StoreFuzzRound {
    var seed: UInt64
    var designs: [DedupeStore.Design]
    var inputs: Int
    /// Time allowed per design.
    var seconds: Double
    var timeout: Double
    var directory: String
    /// The `dedupe-fuzz` the children run.
    var executable: String

    /// Inputs per child: enough that process starts cost little, few enough that a child's
    /// leftovers (descriptors, mappings) stay small.
    static let batchSize = 50

    /// One input's row of `inputs.tsv`.
    struct Row: Equatable {
        var index: Int
        var design: DedupeStore.Design
        var mutations: String
        /// `ok`, or the categories, comma-separated.
        var outcome: String
        var detail: String

        var isFinding: Bool { outcome != "ok" }
    }

    /// One design's inputs as run.
    struct DesignRun {
        var design: DedupeStore.Design
        var rows: [Row] = []
        var seconds: Double = 0
        /// Wall time from each hang's start to its child's end.
        var hangSeconds: Double = 0
        var stoppedAfter: Int?
    }

    /// Runs the round; returns the summary and the number of inputs with findings.
    func run(console: Console) throws(CommandLineError) -> (summary: String, findings: Int) {
        let findingsDirectory = directory + "/findings"
        try? FileManager.default.removeItem(atPath: findingsDirectory)
        try? FileManager.default.createDirectory(atPath: findingsDirectory, withIntermediateDirectories: true)
        var runs: [DesignRun] = []
        for design in designs {
            let run = try self.run(design, console: console)
            for row in run.rows where row.isFinding { keep(row, in: findingsDirectory) }
            runs.append(run)
        }
        try? FileManager.default.removeItem(atPath: directory + "/work")
        var table = CSVTable(header: ["index", "design", "mutations", "outcome", "detail"])
        table.rows = runs.flatMap(\.rows).map { [String($0.index), $0.design.rawValue, $0.mutations, $0.outcome, MessageText.clipped($0.detail)] }
        try? Data(table.renderTabSeparated().utf8).write(to: URL(fileURLWithPath: directory + "/inputs.tsv"))
        let summary = Self.summary(runs, seed: seed, timeout: timeout)
        try? Data(summary.utf8).write(to: URL(fileURLWithPath: directory + "/summary.txt"))
        return (summary, runs.reduce(0) { $0 + $1.rows.filter(\.isFinding).count })
    }

    /// Why the parent ended a child.
    private enum Ending {
        case none, timeout(index: Int, began: Date), budget
    }

    /// The inputs of `design`, batch after batch.
    func run(_ design: DedupeStore.Design, console: Console) throws(CommandLineError) -> DesignRun {
        let work = directory + "/work/" + design.rawValue
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        var result = DesignRun(design: design)
        let started = Date()
        var next = 0
        while next < inputs && result.stoppedAfter == nil {
            let count = min(Self.batchSize, inputs - next)
            var progress = Progress()
            var ending = Ending.none
            let child = try FuzzChild.run(
                executable: executable,
                arguments: [
                    "stores", "--design", design.rawValue, "--seed", String(seed), "--out", directory,
                    "--child-inputs", "\(next),\(count)",
                ],
                outputPath: work + "/stdout", errorPath: work + "/stderr"
            ) {
                progress.read(work + "/stdout")
                if let (index, began) = progress.running, Date().timeIntervalSince(began) > timeout {
                    ending = .timeout(index: index, began: began)
                    return true
                }
                if Date().timeIntervalSince(started) > seconds {
                    ending = .budget
                    return true
                }
                return false
            }
            progress.read(work + "/stdout")
            result.rows += progress.rows.map { Row(index: $0.index, design: design, mutations: $0.mutations, outcome: $0.outcome, detail: $0.detail) }
            for row in progress.rows {
                report(row.index, design: design, outcome: row.outcome, detail: row.detail, console: console)
                if row.outcome == "ok" { try? FileManager.default.removeItem(atPath: work + "/input-\(row.index).store") }
            }
            switch ending {
            case .budget:
                result.stoppedAfter = progress.rows.last.map { $0.index + 1 } ?? next
            case .timeout(let index, let began):
                result.hangSeconds += Date().timeIntervalSince(began)
                let detail = String(format: "no result after %g s", timeout)
                result.rows.append(Row(index: index, design: design, mutations: progress.mutations[index] ?? "", outcome: "hang", detail: detail))
                report(index, design: design, outcome: "hang", detail: detail, console: console)
                next = index + 1
            case .none:
                guard let (index, _) = progress.running else {
                    guard child.ending == .exited(0), progress.rows.count == count else {
                        throw CommandLineError(.runFailed, "a store fuzz child failed outside any input: \(Self.lastLine(child.error))")
                    }
                    next += count
                    continue
                }
                let how = switch child.ending {
                case .signalled(let signal): "signal \(signal)"
                case .exited(let code): "exit \(code)"
                case .timedOut: "ended"
                }
                let detail = "\(how): \(Self.lastLine(child.error))"
                result.rows.append(Row(index: index, design: design, mutations: progress.mutations[index] ?? "", outcome: "crash", detail: detail))
                report(index, design: design, outcome: "crash", detail: detail, console: console)
                next = index + 1
            }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// A finding on stderr as it is found, and every 100th input.
    private func report(_ index: Int, design: DedupeStore.Design, outcome: String, detail: String, console: Console) {
        if outcome != "ok" {
            console.error("[stores \(design.rawValue) \(index)] \(outcome): \(OneLine.escaped(MessageText.clipped(detail, limit: 300)))\n")
        } else if (index + 1) % 100 == 0 {
            console.error("[stores \(design.rawValue) \(index + 1)/\(inputs)]\n")
        }
    }

    /// Keeps a finding: its input file, when it had one, and a one-line description.
    private func keep(_ row: Row, in findings: String) {
        let name = findings + "/" + String(format: "%05d-", row.index) + row.design.rawValue
        let input = directory + "/work/\(row.design.rawValue)/input-\(row.index).store"
        try? FileManager.default.moveItem(atPath: input, toPath: name + ".store")
        let line = "\(row.design.rawValue) input \(row.index) [\(row.mutations)]: \(row.outcome): \(row.detail)\n"
        try? Data(line.utf8).write(to: URL(fileURLWithPath: name + ".txt"))
    }

    static func lastLine(_ data: Data) -> String {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        return OneLine.escaped(MessageText.clipped(lines.last.map(String.init) ?? "no output"))
    }

    /// The children's progress lines, read as they are written.
    struct Progress {
        struct Ended {
            var index: Int
            var mutations: String
            var outcome: String
            var detail: String
        }

        private var consumed = 0
        private(set) var rows: [Ended] = []
        private(set) var mutations: [Int: String] = [:]
        /// The input begun and not ended, and when this process saw it begin.
        private(set) var running: (index: Int, began: Date)?

        /// Reads the whole lines added to `path` since the last read.
        mutating func read(_ path: String) {
            guard let data = FileManager.default.contents(atPath: path), data.count > consumed else { return }
            let fresh = data[(data.startIndex + consumed)...]
            guard let lastNewline = fresh.lastIndex(of: UInt8(ascii: "\n")) else { return }
            consumed += fresh.distance(from: fresh.startIndex, to: lastNewline) + 1
            for line in String(decoding: fresh[...lastNewline], as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 3, let index = Int(fields[1]) else { continue }
                switch fields[0] {
                case "begin":
                    mutations[index] = fields[2]
                    running = (index, Date())
                case "mutations":
                    mutations[index] = fields[2]
                case "end" where fields.count >= 4:
                    rows.append(Ended(index: index, mutations: mutations[index] ?? "", outcome: fields[2], detail: fields[3]))
                    running = nil
                default:
                    continue
                }
            }
        }
    }

    /// The summary: per design, inputs, each category's count and inputs per second (overall,
    /// and without the time hangs waited for the timeout); then one example of each category
    /// found.
    static func summary(_ runs: [DesignRun], seed: UInt64, timeout: Double) -> String {
        let categories = StoreFuzzVerdict.Category.allCases.map(\.rawValue)
        var lines = [String(format: "stores fuzz: seed \(seed), timeout %g s", timeout)]
        lines.append((["design", "inputs", "ok"] + categories + ["inputs/s", "without hangs"]).joined(separator: "\t"))
        for run in runs {
            let count = { (category: String) in run.rows.filter { $0.outcome.split(separator: ",").contains(Substring(category)) }.count }
            let rate = { (inputs: Int, seconds: Double) in seconds > 0 ? String(format: "%.1f", Double(inputs) / seconds) : "-" }
            let rates = [rate(run.rows.count, run.seconds), rate(run.rows.count - count("hang"), run.seconds - run.hangSeconds)]
            lines.append(
                ([run.design.rawValue, String(run.rows.count), String(count("ok"))] + categories.map { String(count($0)) } + rates)
                    .joined(separator: "\t"))
        }
        for run in runs {
            if let stopped = run.stoppedAfter { lines.append("\(run.design.rawValue): stopped by --seconds after \(stopped) input(s)") }
            for category in categories {
                guard let example = run.rows.first(where: { $0.outcome.split(separator: ",").contains(Substring(category)) }) else { continue }
                lines.append("  \(run.design.rawValue) \(category), e.g. input \(example.index) [\(example.mutations)]")
            }
        }
        let findings = runs.reduce(0) { $0 + $1.rows.filter(\.isFinding).count }
        lines.append(findings == 0 ? "no findings" : "\(findings) input(s) with findings: see findings/")
        return lines.joined(separator: "\n") + "\n"
    }
}
