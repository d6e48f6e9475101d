import DedupeReports
import Foundation
import PushDedupe
import Testing

/// A trace the adoption facade recorded replays through `dedupe-bench replay` as it is.
@Suite struct RecordedTraceReplayTests {
    @MainActor
    static func recordSession(routes: RouteRecording) -> [UInt8] {
        let clock = ManualClock()
        let recorder = TraceRecorder(sink: TraceBuffer(), routes: routes)
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock), recorder: recorder)
        var random = SplitMix64(seed: 15)
        var envelopes: [UUID] = []
        for step in 0..<400 {
            clock.advance(by: .milliseconds(Int.random(in: 0...60, using: &random)))
            if step % 3 == 2 {
                _ = dedupe.receiveEmit(envelope: envelopes[envelopes.count - 1 - Int.random(in: 0..<min(5, envelopes.count), using: &random)], source: "pending_route")
            } else {
                let envelope = UUID()
                envelopes.append(envelope)
                _ = dedupe.receivePayload(route: "item:\(Int.random(in: 0..<12, using: &random))", envelope: envelope, source: step % 2 == 0 ? "tap" : "cold_launch")
            }
        }
        return recorder.sink.bytes
    }

    @MainActor @Test(arguments: [RouteRecording.verbatim, .hashed()])
    func aRecordedSessionReplaysWithoutEdits(routes: RouteRecording) throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("session.csv")
        try Data(Self.recordSession(routes: routes)).write(to: trace)
        let out = directory.appendingPathComponent("report")
        let outcome = try BinaryRunner.run([
            "replay", trace.path, "--repetitions", "1", "--filter", "window=\(RecommendedPreset.v1.windowType.strategyID)",
            "--filter", "consumed=\(RecommendedPreset.v1.consumedSetType.strategyID)", "--format", "json", "--allow-debug", "--out", out.path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let results = try ResultsJSON.decode(Data(contentsOf: out.appendingPathComponent("results.json")))
        #expect(results.settings.traceFile == "session.csv")
        #expect(results.cases.contains { $0.window == RecommendedPreset.v1.windowType.strategyID && $0.consumed == RecommendedPreset.v1.consumedSetType.strategyID })
    }
}
