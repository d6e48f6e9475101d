import DedupeDecision
import Foundation
import PushDedupe
import Testing

/// Guides/Replay.md: its recording lines, run here at two launches on one
/// trace and one store, then `replay` on the trace; and the guide must show the lines verbatim.
/// (`.ci/check-adoption` closes the rest of the loop: it compiles what replay prints in a test
/// app and replays the trace through it.)
@Suite struct ReplayGuideLoopTests {
    struct Launch {
        var decision: RoutingDecision
        var replay: RoutingDecision
        var counters: DedupeCounters
        var restored: RestoreOutcome
    }

    /// One launch of an app that adopted the guide's lines: a push tapped, then its pending
    /// route replayed, then the app backgrounded.
    @MainActor static func launch(traceURL: URL, storeURL: URL, route: String, messageID: String) throws -> Launch {
        // BEGIN Guides/Replay.md replay loop
        let recorder = try TraceRecorder.recording(to: traceURL, routes: .hashed())
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL, recorder: recorder)
        let decision = dedupe.receivePayload(route: route, pushID: messageID, source: "tap")
        let replay = dedupe.receiveEmit(pushID: messageID, source: "pending_route")
        dedupe.didEnterBackground()                    // writes `background` and flushes the trace
        // END Guides/Replay.md replay loop
        return Launch(decision: decision, replay: replay, counters: dedupe.counters, restored: dedupe.restoreOutcome)
    }

    @MainActor @Test func theLoopRecordsAcrossARelaunchAndReplaysLabelledByPushID() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let traceURL = directory.appendingPathComponent("session.csv")
        let storeURL = directory.appendingPathComponent("consumed-routes.pdcs")
        let first = try Self.launch(traceURL: traceURL, storeURL: storeURL, route: "item:42", messageID: "msg-42")
        #expect(first.decision == .navigated && first.replay == .suppressedByConsumedSet)
        #expect(first.counters.navigated == 1 && first.counters.suppressedByConsumedSet == 1 && first.restored == .nothingStored)
        // The next launch: the SDK hands the same notification back; the restored set drops it.
        let second = try Self.launch(traceURL: traceURL, storeURL: storeURL, route: "item:42", messageID: "msg-42")
        #expect(second.decision == .suppressedByConsumedSet && second.replay == .suppressedByConsumedSet)
        #expect(second.counters.navigated == 0 && second.counters.suppressedByConsumedSet == 2)
        #expect(second.restored == .restored(ids: 1))

        // Every delivery is in the trace, the suppressed ones marked, with the relaunch between.
        let lines = try String(contentsOf: traceURL, encoding: .utf8).split(separator: "\n")
        let kinds = lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("time_ms") }.map { $0.split(separator: ",", omittingEmptySubsequences: false)[1] }
        #expect(kinds == ["payload", "emit", "background", "relaunch", "payload", "emit", "background"])
        #expect(lines.filter { $0.hasSuffix(",consumed-set") }.count == 3)

        let out = directory.appendingPathComponent("report")
        let outcome = try BinaryRunner.run([
            "replay", traceURL.path, "--repetitions", "1", "--forks", "1", "--filter", "mode=two-layer", "--allow-debug", "--out", out.path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        // Recorded with push ids and no labels: every later delivery of the push is a duplicate.
        let summary = outcome.output
        #expect(summary.contains("Labels:         the trace's truth inferred from push ids: the first delivery of each of the 1 pushes is new and its 3 later deliveries are duplicates"), "\(summary)")
        #expect(summary.contains("Recommendation: ") && summary.contains("To adopt it"), "\(summary)")
        #expect(summary.contains("import PushDedupe") && summary.contains("let dedupe = "), "\(summary)")
    }

    @Test func theReadmeShowsTheTestedLinesVerbatim() throws {
        let marker = "<!-- replay loop: compiled and run by Tests/DedupeCLITests/ReplayGuideLoopTests.swift -->"
        let readme = try String(contentsOf: ReadmeHeadlineTests.root.appendingPathComponent("Guides/Replay.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        guard let begin = source.range(of: "// BEGIN Guides/Replay.md replay loop\n"), let end = source.range(of: "        // END Guides/Replay.md replay loop")
        else { Issue.record("the markers are gone"); return }
        let tested = source[begin.upperBound..<end.lowerBound].split(separator: "\n").map { $0.dropFirst(8) }
        guard let start = readme.range(of: marker + "\n   ```swift\n"), let close = readme[start.upperBound...].range(of: "   ```")
        else { Issue.record("Guides/Replay.md has no replay-loop block after its marker"); return }
        let shown = readme[start.upperBound..<close.lowerBound].split(separator: "\n").map { $0.dropFirst(3) }
        #expect(tested.count == 5)
        #expect(shown == tested, "Guides/Replay.md's replay loop differs from the lines this test runs: copy them again")
    }
}
