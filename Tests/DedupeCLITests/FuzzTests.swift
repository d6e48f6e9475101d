import DedupeDecision
import DedupeReports
import Foundation
import Testing
@testable import DedupeFuzz

/// `dedupe-fuzz`: its inputs are a function of the seed, its judge follows the exit-code contract,
/// a small round gives the same inputs and classes twice, and every crash input it found stays
/// a regression test (`Fixtures/fuzz/`).
@Suite struct FuzzTests {
    nonisolated(unsafe) static let base = FuzzResults.tree(try! ResultsJSON.encode(FuzzResults.normalized(ForkedResults.make(seed: 3))))

    @Test func inputsAreAFunctionOfTheSeedAndTheIndex() {
        let first = (0..<100).map { FuzzTraces.input(seed: 11, index: $0).digest }
        let again = (0..<100).reversed().map { FuzzTraces.input(seed: 11, index: $0).digest }.reversed()
        #expect(first == Array(again))
        #expect(Set(first).count > 80, "mutations should rarely coincide")
        #expect(FuzzTraces.input(seed: 12, index: 0).digest != first[0])
        let compare = (0..<12).map { FuzzResults.input(seed: 11, index: $0, base: Self.base).digest }
        #expect(compare == (0..<12).map { FuzzResults.input(seed: 11, index: $0, base: Self.base).digest })
        #expect(Set(compare).count > 8)
    }

    /// One input is pinned, so a change to the generator (or to what it builds on) that would
    /// make an old seed mean other inputs shows up here.
    @Test func oneInputIsPinned() {
        let input = FuzzTraces.input(seed: 1, index: 0)
        #expect(input.mutations == ["fingerprint-burst", "relaunch-insert"])
        #expect(input.arguments.prefix(2) == ["replay", "@trace.csv"])
        #expect(FuzzDigest.hex(input.digest) == "bfd7a35289741a56")
    }

    /// The normalized base holds no measured figure: two different runs give the same file.
    @Test func theBaseResultsAreNormalized() throws {
        let one = try ResultsJSON.encode(FuzzResults.normalized(ForkedResults.make(seed: 3, forkNoise: 0.05)))
        let two = try ResultsJSON.encode(FuzzResults.normalized(ForkedResults.make(seed: 4, forkNoise: 0.2)))
        #expect(one == two)
        let results = try ResultsJSON.decode(one)
        #expect(ResultsComparison.inputProblem(in: results) == nil)
    }

    static func child(_ ending: FuzzChild.Ending, output: String = "", error: String = "") -> FuzzChild {
        FuzzChild(ending: ending, output: Data(output.utf8), error: Data(error.utf8))
    }

    @Test func theJudgeFollowsTheExitCodeContract() {
        let replay = FuzzTraces.input(seed: 1, index: 1)
        let compare = FuzzResults.input(seed: 1, index: 2, base: Self.base)
        let one = "dedupe-bench: error: trace.csv:2: bad number\n"
        #expect(FuzzOutcome.judge(replay, Self.child(.exited(2), error: one), outputFiles: [])
            == FuzzOutcome(category: .refused, detail: "trace.csv:2: bad number"))
        #expect(FuzzOutcome.judge(replay, Self.child(.exited(2), error: "dedupe-bench: warning: x\n" + one), outputFiles: []).category == .badRefusal)
        #expect(FuzzOutcome.judge(replay, Self.child(.exited(2), error: ""), outputFiles: []).category == .badRefusal)
        #expect(FuzzOutcome.judge(replay, Self.child(.exited(2), error: "dedupe-bench: error: \n"), outputFiles: []).category == .badRefusal)
        #expect(FuzzOutcome.judge(replay, Self.child(.exited(1)), outputFiles: []) == FuzzOutcome(category: .crash, detail: "exit 1"))
        #expect(FuzzOutcome.judge(compare, Self.child(.exited(1)), outputFiles: [("table.tsv", Data("a\tb\n1\t2\n".utf8))]).category == .accepted)
        #expect(FuzzOutcome.judge(replay, Self.child(.timedOut), outputFiles: []).category == .hang)
        #expect(FuzzOutcome.judge(replay, Self.child(.signalled(4)), outputFiles: []) == FuzzOutcome(category: .crash, detail: "signal 4"))
    }

    @Test func crashSitesComeFromTheBacktrace() {
        let backtrace = """
        *** Swift runtime failure: arithmetic overflow ***
          0 [inlined] [system]      0x000055fab046a050 Swift runtime failure: arithmetic overflow in dedupe-bench at //<compiler-generated>
          1                         0x000055fab046a050 specialized static DeviceProfile.derive(from:) + 3408 in dedupe-bench at /work/x/Sources/DedupeHarness/Profile/DeviceProfile.swift:118:49
          3 [ra]                    0x000055fab04bb8a9 RunPlan.deviceProfile(loaded:sizing:) + 1480 in dedupe-bench at /work/x/Sources/DedupeHarness/Profile/RunPlan+Profile.swift:18:30
        """
        #expect(FuzzOutcome.crashSite(backtrace) == "DeviceProfile.swift:118")
        #expect(FuzzOutcome.crashSite("DedupeReports/Compare/ResultsComparison+Validation.swift:28: Fatal error: Division by zero") == "ResultsComparison+Validation.swift:28")
        #expect(FuzzOutcome.crashSite("Illegal instruction") == nil)
    }

    /// Exit 0 is a wrong accept when the outputs hold `nan` or `inf`, or `compare` gated
    /// nothing or wrote a broken table; words that merely contain the letters are fine.
    @Test func wrongAcceptsAreCaught() {
        let valid = FuzzInput(
            kind: .replay, mutations: [], files: [("trace.csv", Array("time_ms,kind,envelope,fingerprint,source,truth\n0,payload,e1,item:1,tap,new\n".utf8))],
            arguments: [])
        #expect(FuzzOutcome.judge(valid, Self.child(.exited(0), output: "info: banana infinite"), outputFiles: []).category == .accepted)
        #expect(FuzzOutcome.judge(valid, Self.child(.exited(0)), outputFiles: [("report.md", Data("| ratio | NaN |".utf8))])
            == FuzzOutcome(category: .wrongAccept, detail: "'nan' in report.md"))
        #expect(FuzzOutcome.judge(valid, Self.child(.exited(0), output: "x -inf"), outputFiles: []).detail == "'inf' in stdout")
        let relaunches = FuzzInput(
            kind: .replay, mutations: [], files: [("trace.csv", Array("time_ms,kind,envelope,fingerprint,source,truth\n0,relaunch,,,,\n".utf8))],
            arguments: [])
        #expect(FuzzOutcome.judge(relaunches, Self.child(.exited(0)), outputFiles: []).detail == "a trace without a payload")
        let malformed = FuzzInput(kind: .replay, mutations: [], files: [("trace.csv", Array("time_ms\n".utf8))], arguments: [])
        #expect(FuzzOutcome.judge(malformed, Self.child(.exited(0)), outputFiles: []).detail == "a trace the parser refuses")
        let compare = FuzzResults.input(seed: 1, index: 2, base: Self.base)
        #expect(FuzzOutcome.judge(compare, Self.child(.exited(0), output: "compare: 0 unit(s) gated"), outputFiles: []).category == .wrongAccept)
        #expect(FuzzOutcome.tableProblem(Data("a\tb\nx\n".utf8)) == "table row 2 has another column count than the header")
        #expect(FuzzOutcome.tableProblem(Data("a\tb\nx\u{1B}\ty\n".utf8)) == "a control character in the table")
    }

    /// Two runs of one small round (their own processes, other directories) give the same
    /// inputs table: digests, classes and details. A debug build replays slowly, so the round
    /// is short.
    @Test func aSeededRoundIsDeterministic() throws {
        var tables: [String] = []
        var summaries: [String] = []
        for _ in 0..<2 {
            let directory = try BinaryRunner.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let outcome = try BinaryRunner.run(tool: "dedupe-fuzz", ["--seed", "5", "--inputs", "3", "--minimize", "0", "--timeout", "120", "--out", directory.path])
            #expect([0, 1].contains(outcome.status), "\(outcome.error)")
            summaries.append(outcome.output)
            tables.append(try String(contentsOf: directory.appendingPathComponent("inputs.tsv"), encoding: .utf8))
        }
        #expect(tables[0] == tables[1])
        #expect(summaries[0].replacingOccurrences(of: "\n.*findings: .*", with: "", options: .regularExpression)
            == summaries[1].replacingOccurrences(of: "\n.*findings: .*", with: "", options: .regularExpression))
        #expect(tables[0].split(separator: "\n").count == 4)
        #expect(summaries[0].hasPrefix("fuzz: seed 5, 3 input(s): 2 replay, 1 compare; inputs digest "))
    }

    /// Every minimal crash input `dedupe-fuzz` found, replayed through the binary: an acceptance or
    /// a one-line refusal. One whose crash is not fixed yet carries `known-crash` (its site).
    @Test(arguments: try! FileManager.default.contentsOfDirectory(atPath: BinaryRunner.fixture("fuzz").path).sorted())
    func foundCrashesStayFixed(_ name: String) throws {
        let fixture = BinaryRunner.fixture("fuzz").appendingPathComponent(name)
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        var files: [(name: String, bytes: [UInt8])] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: fixture.path) where !["arguments", "known-crash"].contains(file) {
            let bytes = try Array(Data(contentsOf: fixture.appendingPathComponent(file)))
            files.append((file, bytes))
            try Data(bytes).write(to: work.appendingPathComponent(file))
        }
        let arguments = try String(contentsOf: fixture.appendingPathComponent("arguments"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let input = FuzzInput(kind: arguments.first == "compare" ? .compare : .replay, mutations: [], files: files, arguments: arguments)
        let outcome = try BinaryRunner.run(input.resolvedArguments(in: work.path))
        let child = FuzzChild(
            ending: outcome.killedBySignal ? .signalled(outcome.status) : .exited(outcome.status),
            output: Data(outcome.output.utf8), error: Data(outcome.error.utf8))
        let judged = FuzzOutcome.judge(input, child, outputFiles: FuzzRound.outputs(in: work.path, input: input))
        let knownCrash = try? String(contentsOf: fixture.appendingPathComponent("known-crash"), encoding: .utf8)
        if let knownCrash {
            withKnownIssue("\(name) still crashes at \(knownCrash.trimmingCharacters(in: .whitespacesAndNewlines))") {
                #expect(!judged.category.isFinding, "\(judged)")
            }
        } else {
            #expect(!judged.category.isFinding, "\(judged)")
        }
    }
}
