import DedupeWorkloads
import DedupeCommandLine
import DedupeHarness
import DedupeReports
import Foundation

/// One round of `dedupe-fuzz`: generates the inputs in order, runs each, classifies it, keeps the
/// findings, and summarises. Nothing in the summary or the inputs table depends on timing but
/// the hangs (and a stop by `--seconds`, which says so).
struct FuzzRound {
    var seed: UInt64
    var inputs: Int
    var seconds: Double
    var timeout: Double
    var kinds: [FuzzInput.Kind]
    /// Runs spent minimizing the first trace of each crash site.
    var minimizationRuns: Int
    var directory: String
    /// The `dedupe-bench` executable under test.
    var tool: String
    private(set) var findings = 0

    static func kinds(_ text: String?) throws(CommandLineError) -> [FuzzInput.Kind] {
        guard let text else { return [.replay, .compare] }
        var kinds: [FuzzInput.Kind] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = FuzzInput.Kind(rawValue: String(name)) else {
                throw CommandLineError(.badValue, "invalid value '\(name)' in '--kinds': expected replay or compare")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds
    }

    static func directory(_ path: String?) throws(CommandLineError) -> String {
        guard let path, !path.isEmpty else { throw CommandLineError(.missingValue, "missing option '--out DIR'") }
        if let problem = OutputTarget.directoryProblem(at: path) {
            throw CommandLineError(.badValue, "invalid value '\(path)' for '--out': \(problem)")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandLineError(.unreadableFile, "cannot create '\(path)'")
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The kind of input `index`: with both kinds, two replays, then one compare.
    func kind(_ index: Int) -> FuzzInput.Kind {
        kinds.count == 1 ? kinds[0] : (index % 3 == 2 ? .compare : .replay)
    }

    /// Runs the round and returns the summary (also written to `summary.txt`).
    mutating func run(console: Console) throws(CommandLineError) -> String {
        let started = Date()
        let work = directory + "/work"
        let findingsDirectory = directory + "/findings"
        try? FileManager.default.removeItem(atPath: findingsDirectory)
        var base: Any?
        var table = CSVTable(header: ["index", "kind", "digest", "category", "detail", "mutations"])
        var counts: [FuzzOutcome.Category: Int] = [:]
        var details: [String: Int] = [:]
        var kindCounts: [FuzzInput.Kind: Int] = [:]
        var roundDigest = FuzzDigest()
        var minimized: Set<String> = []
        var stoppedAfter: Int?
        for index in 0..<inputs {
            if Date().timeIntervalSince(started) > seconds {
                stoppedAfter = index
                break
            }
            let input: FuzzInput
            switch kind(index) {
            case .replay: input = FuzzTraces.input(seed: seed, index: index)
            case .compare:
                if base == nil { base = FuzzResults.tree(try baseResults()) }
                input = FuzzResults.input(seed: seed, index: index, base: base!)
            }
            let (outcome, child) = try run(input, in: work)
            roundDigest.add(FuzzDigest.hex(input.digest))
            counts[outcome.category, default: 0] += 1
            kindCounts[input.kind, default: 0] += 1
            if outcome.category.isFinding {
                findings += 1
                details["\(outcome.category.rawValue): \(input.kind.rawValue) \(outcome.detail)", default: 0] += 1
                let name = String(format: "%05d-", index) + outcome.category.rawValue.replacingOccurrences(of: " ", with: "-")
                keep(input, child: child, outcome: outcome, as: findingsDirectory + "/" + name)
                if outcome.category == .crash, input.kind == .replay, minimizationRuns > 0, minimized.insert(outcome.detail).inserted {
                    let minimal = try minimize(input, site: outcome.detail, in: work, until: started.addingTimeInterval(seconds))
                    try? Data(minimal).write(to: URL(fileURLWithPath: findingsDirectory + "/" + name + "/minimal.csv"))
                }
            }
            table.rows.append([
                String(index), input.kind.rawValue, FuzzDigest.hex(input.digest), outcome.category.rawValue,
                MessageText.clipped(outcome.detail), input.mutations.joined(separator: " + "),
            ])
            if outcome.category.isFinding || (index + 1) % 25 == 0 {
                let what = outcome.category.isFinding ? ": \(input.kind.rawValue) \(outcome.category.rawValue) \(OneLine.escaped(outcome.detail))" : ""
                console.error("[fuzz \(index + 1)/\(inputs)]\(what)\n")
            }
        }
        try? FileManager.default.removeItem(atPath: work)

        let ran = counts.values.reduce(0, +)
        var lines = [
            "fuzz: seed \(seed), \(ran) input(s): \(kindCounts[.replay] ?? 0) replay, \(kindCounts[.compare] ?? 0) compare; "
                + "inputs digest \(roundDigest.hex)",
        ]
        if let stoppedAfter { lines.append("stopped by --seconds after \(stoppedAfter) of \(inputs) input(s)") }
        for category in FuzzOutcome.Category.allCases {
            var line = "  " + category.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0) + String(counts[category] ?? 0)
            let listed = details.filter { $0.key.hasPrefix(category.rawValue + ": ") }
                .sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.key.dropFirst(category.rawValue.count + 2)) ×\($0.value)" }
            if !listed.isEmpty { line += "  (" + listed.joined(separator: "; ") + ")" }
            lines.append(line)
        }
        if findings > 0 { lines.append("findings: \(findingsDirectory)") }
        let summary = lines.joined(separator: "\n") + "\n"
        try? Data(summary.utf8).write(to: URL(fileURLWithPath: directory + "/summary.txt"))
        try? Data(table.renderTabSeparated().utf8).write(to: URL(fileURLWithPath: directory + "/inputs.tsv"))
        console.error(String(format: "fuzz: %.1f s\n", Date().timeIntervalSince(started)))
        return summary
    }

    /// Writes `input` into a fresh `work`, runs it, and judges it. Messages quote the work
    /// directory as `@`, so the details do not depend on `--out`.
    func run(_ input: FuzzInput, in work: String) throws(CommandLineError) -> (FuzzOutcome, FuzzChild) {
        try? FileManager.default.removeItem(atPath: work)
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            for file in input.files { try Data(file.bytes).write(to: URL(fileURLWithPath: work + "/" + file.name)) }
        } catch {
            throw CommandLineError(.unreadableFile, "cannot write the fuzz input into '\(work)'")
        }
        var child = try FuzzChild.run(
            executable: tool, arguments: input.resolvedArguments(in: work),
            outputPath: directory + "/stdout", errorPath: directory + "/stderr", timeoutSeconds: timeout)
        if child.ending == .timedOut {
            // Once more with four times the time: on a loaded machine a small input can take many
            // times its CPU time, and a hang is a finding only when it does not finish either way.
            try? FileManager.default.removeItem(atPath: work + "/out")
            child = try FuzzChild.run(
                executable: tool, arguments: input.resolvedArguments(in: work),
                outputPath: directory + "/stdout", errorPath: directory + "/stderr", timeoutSeconds: 4 * timeout)
        }
        var outcome = FuzzOutcome.judge(input, child, outputFiles: Self.outputs(in: work, input: input))
        outcome.detail = outcome.detail.replacingOccurrences(of: work + "/", with: "@")
        return (outcome, child)
    }

    /// What a run wrote: every regular file under the work directory that is not an input.
    static func outputs(in work: String, input: FuzzInput) -> [(name: String, bytes: Data)] {
        let inputs = Set(input.files.map(\.name))
        guard let enumerator = FileManager.default.enumerator(atPath: work) else { return [] }
        var files: [(name: String, bytes: Data)] = []
        for case let name as String in enumerator where !inputs.contains(name) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: work + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: work + "/" + name)
            else { continue }
            files.append((URL(fileURLWithPath: name).lastPathComponent, data))
        }
        return files.sorted { $0.name < $1.name }
    }

    /// Keeps a finding: its input files, the arguments (one a line) and what it printed.
    func keep(_ input: FuzzInput, child: FuzzChild, outcome: FuzzOutcome, as path: String) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for file in input.files { try? Data(file.bytes).write(to: URL(fileURLWithPath: path + "/" + file.name)) }
        let notes = "\(outcome.category.rawValue): \(outcome.detail)\nmutations: \(input.mutations.joined(separator: " + "))\n"
        try? Data((input.arguments.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path + "/arguments"))
        try? Data(notes.utf8).write(to: URL(fileURLWithPath: path + "/outcome"))
        try? child.error.write(to: URL(fileURLWithPath: path + "/stderr"))
    }

    /// The smallest trace (by lines, greedily: ddmin over chunks, at most `minimizationRuns` runs) that still
    /// crashes at `site` with `input`'s arguments.
    /// Stops at `deadline` too (`--seconds`), keeping what it has: the summary does not depend on it.
    func minimize(_ input: FuzzInput, site: String, in work: String, until deadline: Date) throws(CommandLineError) -> [UInt8] {
        let bytes = input.files.first { $0.name == "trace.csv" }?.bytes ?? []
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        func join(_ lines: [[UInt8]]) -> [UInt8] { Array(lines.joined(separator: [UInt8(ascii: "\n")])) }
        func crashes(_ candidate: [[UInt8]]) throws(CommandLineError) -> Bool {
            var trial = input
            trial.files = [("trace.csv", join(candidate))]
            let (outcome, _) = try run(trial, in: work)
            return outcome.category == .crash && outcome.detail == site
        }
        var chunks = 2
        var runs = 0
        while lines.count >= 2 && runs < minimizationRuns && Date() < deadline {
            let size = max(1, lines.count / chunks)
            var removed = false
            for start in stride(from: 0, to: lines.count, by: size) where runs < minimizationRuns && Date() < deadline {
                var candidate = lines
                candidate.removeSubrange(start..<min(lines.count, start + size))
                runs += 1
                if try crashes(candidate) {
                    lines = candidate
                    chunks = max(chunks - 1, 2)
                    removed = true
                    break
                }
            }
            if !removed {
                if size == 1 { break }
                chunks = min(chunks * 2, lines.count)
            }
        }
        return join(lines)
    }

    /// The results file every compare input is mutated from: a replay of the trace format
    /// guide's relaunch example (two windows, two sets, four forks), normalized
    /// (`FuzzResults.normalized`).
    func baseResults() throws(CommandLineError) -> Data {
        let base = directory + "/base"
        try? FileManager.default.removeItem(atPath: base)
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let trace = FuzzTraces.Draft(events: FuzzTraces.corpus[1]).bytes
        try? Data(trace).write(to: URL(fileURLWithPath: base + "/trace.csv"))
        let child = try FuzzChild.run(
            executable: tool,
            arguments: [
                "replay", base + "/trace.csv", "--out", base + "/out", "--forks", "4", "--repetitions", "2", "--format", "json",
                "--quiet", "--allow-debug", "--filter", "window=published-literal,hash-deque", "--filter", "consumed=set,fifo-set",
            ],
            outputPath: base + "/stdout", errorPath: base + "/stderr", timeoutSeconds: 600)
        guard child.ending == .exited(0), let data = FileManager.default.contents(atPath: base + "/out/results.json") else {
            throw CommandLineError(
                .runFailed, "cannot make the fuzzer's base results: \(OneLine.escaped(String(decoding: child.error, as: UTF8.self)))")
        }
        do {
            return try ResultsJSON.encode(FuzzResults.normalized(ResultsJSON.decode(data)))
        } catch {
            throw CommandLineError(.runFailed, "cannot make the fuzzer's base results: \(error)")
        }
    }
}
