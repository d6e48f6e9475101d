import DedupeReports
import Foundation
import Synchronization
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
            "replay", trace.path, "--allow-debug", "--repetitions", "1", "--filter", "window=published-literal",
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

    /// What went wrong in one trial: the child killed at `step` in a fresh copy of the
    /// previous set with a user's file beside it, then (if it was killed) a run that recovers.
    static func trial(
        step: Int, root: URL, bravo: URL, previous: [String: Data]
    ) throws -> (finished: Bool, problems: [String]) {
        var problems: [String] = []
        let trial = root.appendingPathComponent("kill-\(step)")
        defer { try? FileManager.default.removeItem(at: trial) }
        let out = trial.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for (name, data) in previous { try data.write(to: out.appendingPathComponent(name)) }
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))

        let killed = try BinaryRunner.run(Self.replay(bravo, out: out), environment: [Self.killVariable: "\(step)"])
        let state = try Self.snapshot(out)
        let isNew = Self.isCompleteNewSet(state, previous: previous)
        if state != previous && !isNew { problems.append("kill at step \(step): a mixed or partial set: \(state.keys.sorted())") }
        let siblings = try FileManager.default.contentsOfDirectory(atPath: trial.path).filter { $0 != "out" }
        let notesKept = ([out] + siblings.map { trial.appendingPathComponent($0) }).contains {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("notes.txt").path)
        }
        if !notesKept { problems.append("kill at step \(step): the user's file is gone") }

        guard killed.killedBySignal else {
            if killed.status != 0 { problems.append("step \(step): \(killed.error)") }
            if !isNew || !siblings.isEmpty { problems.append("the run that was not killed left \(siblings)") }
            return (true, problems)
        }
        if killed.status != SIGKILL { problems.append("step \(step): signal \(killed.status)") }
        // The next run clears the leftovers and brings the user's file back.
        let recovery = try BinaryRunner.run(Self.replay(bravo, out: out))
        if recovery.status != 0 { problems.append("recovery after step \(step): \(recovery.error)") }
        if !Self.isCompleteNewSet(try Self.snapshot(out), previous: previous) { problems.append("recovery after step \(step): not the new set") }
        if (try? String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8)) != "mine" {
            problems.append("recovery after step \(step): the user's file did not come back")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: trial.path)
        if left != ["out"] { problems.append("recovery after step \(step): left \(left)") }
        return (false, problems)
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

        // Trials are independent (each in its own directory), so a batch runs at once; the
        // sweep ends with the batch in which a child was not killed.
        let batch = 6
        var firstStep = 1
        var finishedAt: Int?
        var problems: [String] = []
        while finishedAt == nil && firstStep < 400 {
            let outcomes = Mutex([Int: (finished: Bool, problems: [String])]())
            let start = firstStep
            DispatchQueue.concurrentPerform(iterations: batch) { offset in
                let step = start + offset
                let outcome = (try? Self.trial(step: step, root: root, bravo: bravo, previous: previous))
                    ?? (false, ["step \(step): the trial could not be set up"])
                outcomes.withLock { $0[step] = outcome }
            }
            let results = outcomes.withLock { $0 }
            for step in results.keys.sorted() {
                problems += results[step]!.problems
                if results[step]!.finished && finishedAt == nil { finishedAt = step }
            }
            firstStep += batch
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // Manifest, three files, the swap and the removal of the old set: well over ten steps.
        #expect((finishedAt ?? 0) > 10)
    }
}
