import DedupeReports
import Foundation
import Testing

/// A run killed at every step of publishing its reports leaves the output directory holding the
/// complete previous set or the complete new one, never a mix or a partial file; a user's file
/// in the directory is never lost; and the next run clears what the killed one left.
///
/// The kill point is `DEDUPE_BENCH_TEST_KILL_AT_STEP` (see `_FileSteps`): the child SIGKILLs
/// itself before its N-th file-system step. N runs from 1 until a child finishes, so the sweep
/// follows the publication as it is, without a hard-coded step count.
@Suite struct ReportPublicationKillTests {
    static let killVariable = "DEDUPE_BENCH_TEST_KILL_AT_STEP"

    /// Two traces with the same events under different names: every report names its trace,
    /// so the two sets differ in every file but have the same file names.
    static func replay(_ trace: URL, out: URL) -> [String] {
        [
            "replay", trace.path, "--allow-debug", "--repetitions", "1", "--filter", "window=seed-literal",
            "--filter", "consumed=set", "--filter", "mode=two-layer", "--format", "json,md", "--out", out.path,
        ]
    }

    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name != "notes.txt" {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    /// A complete set from `bravo.csv`: the same names as `previous`, a results file that
    /// decodes and names the trace, a report naming it, whole lines.
    static func isCompleteNewSet(_ state: [String: Data], previous: [String: Data]) -> Bool {
        guard Set(state.keys) == Set(previous.keys), let json = state["results.json"], let report = state["report.md"],
              let results = try? ResultsJSON.decode(json), results.settings.traceFile == "bravo.csv"
        else { return false }
        let text = String(decoding: report, as: UTF8.self)
        return json != previous["results.json"] && text.contains("bravo.csv") && text.hasSuffix("\n")
            && state.values.allSatisfy { !$0.isEmpty && $0.last == UInt8(ascii: "\n") }
    }

    @Test func killAtEveryStepLeavesThePreviousOrTheNewSet() throws {
        let root = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let alpha = root.appendingPathComponent("alpha.csv")
        let bravo = root.appendingPathComponent("bravo.csv")
        try FileManager.default.copyItem(at: BinaryRunner.fixture("replay-small.csv"), to: alpha)
        try FileManager.default.copyItem(at: BinaryRunner.fixture("replay-small.csv"), to: bravo)
        let reference = root.appendingPathComponent("reference")
        let first = try BinaryRunner.run(Self.replay(alpha, out: reference))
        try #require(first.status == 0, "\(first.error)")
        let previous = try Self.snapshot(reference)
        #expect(previous.keys.contains(DirectoryPublication.manifestName))

        var step = 0
        var finished = false
        while !finished && step < 400 {
            step += 1
            let trial = root.appendingPathComponent("kill-\(step)")
            let out = trial.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            for (name, data) in previous { try data.write(to: out.appendingPathComponent(name)) }
            try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))

            let killed = try BinaryRunner.run(Self.replay(bravo, out: out), environment: [Self.killVariable: "\(step)"])
            let state = try Self.snapshot(out)
            let isPrevious = state == previous
            let isNew = Self.isCompleteNewSet(state, previous: previous)
            #expect(isPrevious || isNew, "kill at step \(step): a mixed or partial set: \(state.keys.sorted())")
            let siblings = try FileManager.default.contentsOfDirectory(atPath: trial.path).filter { $0 != "out" }
            let notesKept = ([out] + siblings.map { trial.appendingPathComponent($0) }).contains {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("notes.txt").path)
            }
            #expect(notesKept, "kill at step \(step): the user's file is gone")

            if !killed.killedBySignal {
                #expect(killed.status == 0, "\(killed.error)")
                #expect(isNew && siblings.isEmpty, "the run that was not killed left \(siblings)")
                finished = true
                continue
            }
            #expect(killed.status == SIGKILL)
            // The next run clears the leftovers and brings the user's file back.
            let recovery = try BinaryRunner.run(Self.replay(bravo, out: out))
            #expect(recovery.status == 0, "\(recovery.error)")
            #expect(Self.isCompleteNewSet(try Self.snapshot(out), previous: previous), "after the kill at step \(step)")
            #expect(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
            #expect(try FileManager.default.contentsOfDirectory(atPath: trial.path) == ["out"], "after the kill at step \(step)")
            try FileManager.default.removeItem(at: trial)
        }
        #expect(finished)
        // Manifest, three files, the swap and the removal of the old set: well over ten steps.
        #expect(step > 10)
    }
}
