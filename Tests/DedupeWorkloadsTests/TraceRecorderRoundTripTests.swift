import Foundation
import PushDedupe
@testable import DedupeWorkloads
import Testing

/// What `TraceRecorder` writes, `TraceReader` reads back as the same events, and replaying them
/// makes the decisions the app saw.
@Suite struct TraceRecorderRoundTripTests {
    struct Live {
        var kind: EventKind
        var envelope: EnvelopeID
        var route: String?
        var time: Timestamp
        var decision: RoutingDecision
    }

    /// A seeded session through the facade with a manual clock: bursts of repeats, replays of
    /// old envelopes, time that sometimes stands still.
    @MainActor
    static func record(seed: UInt64, routes: RouteRecording) -> (TraceRecorder<TraceBuffer>, [Live]) {
        var random = SplitMix64(seed: seed)
        let clock = ManualClock()
        let recorder = TraceRecorder(sink: TraceBuffer(), routes: routes)
        let dedupe = MainActorDeduplicator<HashDequeWindow, FIFOSet>(consumed: .compact, clock: .manual(clock), recorder: recorder)
        var live: [Live] = []
        var envelopes: [UUID] = []
        for _ in 0..<3_000 {
            clock.advance(by: .nanoseconds(Int64.random(in: 0...400_000_000, using: &random) / Int64.random(in: 1...50, using: &random)))
            let source = ["tap", "cold_launch", "pending_route", "ready_callback"][Int.random(in: 0..<4, using: &random)]
            if envelopes.isEmpty || Int.random(in: 0..<3, using: &random) > 0 {
                let envelope = UUID(EnvelopeID(high: random.next(), low: random.next()))
                envelopes.append(envelope)
                let route = "item:\(Int.random(in: 0..<40, using: &random))"
                let decision = dedupe.receivePayload(route: route, envelope: envelope, source: source)
                live.append(Live(kind: .payload, envelope: EnvelopeID(uuid: envelope), route: route, time: clock.now, decision: decision))
            } else {
                let envelope = envelopes[Int.random(in: max(0, envelopes.count - 20)..<envelopes.count, using: &random)]
                let decision = dedupe.receiveEmit(envelope: envelope, source: source)
                live.append(Live(kind: .emit, envelope: EnvelopeID(uuid: envelope), route: nil, time: clock.now, decision: decision))
            }
        }
        return (recorder, live)
    }

    /// The decisions a fresh pipeline makes on `workload`; a relaunch starts a new one, as the
    /// app's new process does.
    static func replay(_ workload: Workload) -> [RoutingDecision] {
        func fresh() -> TwoLayerPipeline<HashDequeWindow, FIFOSet> {
            TwoLayerPipeline(window: HashDequeWindow(preset: .standard), consumed: FIFOSet(preset: .compact))
        }
        var pipeline = fresh()
        return workload.events.compactMap { event in
            switch event.kind {
            case .payload: return pipeline.receivePayload(event.fingerprint, envelope: event.envelope, at: event.time)
            case .emit: return pipeline.receiveEmit(envelope: event.envelope, at: event.time)
            case .relaunch:
                pipeline = fresh()
                return nil
            case .background:
                return nil
            }
        }
    }

    /// Two launches recorded into one file: the second resumes the first's trace with a
    /// `relaunch` line and replays envelopes the first created (the app's persisted pending
    /// routes). The file parses, and replaying it with the state lost at the relaunch gives the
    /// decisions both launches made.
    @MainActor @Test func aRelaunchContinuesTheTraceAndReplays() throws {
        let (first, firstLive) = Self.record(seed: 4, routes: .verbatim)
        let offset = firstLive.last!.time
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("relaunched-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(first.sink.bytes).write(to: url)
        // The last 50 envelopes the first launch navigated to, persisted as pending routes.
        let pending = Array(firstLive.filter { $0.kind == .payload && $0.decision == .navigated }.suffix(50).map(\.envelope))
        // Relaunched at once: the wall clock has not passed the first launch's manual times.
        let second = try TraceRecorder.resume(from: url)
        let clock = ManualClock()
        let dedupe = MainActorDeduplicator<HashDequeWindow, FIFOSet>(consumed: .compact, clock: .manual(clock), recorder: second)
        var secondDecisions: [RoutingDecision] = []
        for envelope in pending {
            clock.advance(by: .milliseconds(10))
            secondDecisions.append(dedupe.receiveEmit(envelope: UUID(envelope), source: "pending_route"))
        }
        // An envelope no payload in the file created cannot be written.
        _ = dedupe.receiveEmit(envelope: UUID(EnvelopeID(high: 9, low: 9)), source: "pending_route")
        #expect(second.skippedEvents == 1)
        second.withSink { $0.close() }
        let workload = try TraceReader.read(url: url)
        #expect(workload.events.count == firstLive.count + 1 + 50)
        #expect(workload.events[firstLive.count].kind == .relaunch)
        #expect(workload.events[firstLive.count].time == offset)
        #expect(workload.events.last?.time == offset + .milliseconds(500))
        #expect(secondDecisions.allSatisfy { $0 == .navigated }, "the new process remembers nothing")
        #expect(Self.replay(workload) == firstLive.map(\.decision) + secondDecisions)
    }

    @MainActor @Test(arguments: [1, 2] as [UInt64])
    func verbatimTracesReadBackAsTheRecordedEvents(seed: UInt64) throws {
        let (recorder, live) = Self.record(seed: seed, routes: .verbatim)
        let workload = try TraceReader.read(bytes: recorder.sink.bytes, fileName: "recorded.csv")
        #expect(recorder.skippedEvents == 0)
        #expect(workload.summary == "Recorded by PushDedupe TraceRecorder (routes verbatim)")
        #expect(workload.events.count == live.count)
        for (event, expected) in zip(workload.events, live) {
            #expect(event.kind == expected.kind && event.envelope == expected.envelope && event.time == expected.time)
            #expect(event.truth == .unknown)
            if let route = expected.route {
                #expect(workload.route(of: event) == route)
                #expect(event.fingerprint == RouteFingerprint(route: route))
            }
        }
        #expect(Self.replay(workload) == live.map(\.decision))
        #expect(Set(live.map(\.decision)).count == 3, "the session exercises every decision")
    }

    @MainActor @Test(arguments: [RouteRecording.hashed(), .hashed(salt: 0xfeed_f00d)])
    func hashedTracesReplayToTheSameDecisions(routes: RouteRecording) throws {
        let (recorder, live) = Self.record(seed: 3, routes: routes)
        let workload = try TraceReader.read(bytes: recorder.sink.bytes, fileName: "hashed.csv")
        #expect(workload.events.count == live.count)
        #expect(workload.routes.allSatisfy { $0.hasPrefix("fp:") && $0.count == 19 })
        #expect(workload.routes.count == Set(live.compactMap(\.route)).count)
        #expect(!String(decoding: recorder.sink.bytes, as: UTF8.self).contains("item:"))
        #expect(Self.replay(workload) == live.map(\.decision))
    }

    @Test func fingerprintPayloadsAndOddLabelsStillParse() throws {
        let recorder = TraceRecorder(sink: TraceBuffer())
        recorder.recordPayload(RouteFingerprint(route: "item:1"), envelope: EnvelopeID(high: 1, low: 1), pushID: nil, source: "a,b\tc", at: .zero, decision: .navigated)
        recorder.recordPayload(route: String(repeating: "x", count: 500), envelope: EnvelopeID(high: 1, low: 2), pushID: nil, source: String(repeating: "s", count: 500), at: .milliseconds(1), decision: .navigated)
        recorder.recordPayload(route: "", envelope: EnvelopeID(high: 1, low: 3), pushID: nil, source: "", at: .milliseconds(-5), decision: .navigated)
        recorder.recordEmit(envelope: EnvelopeID(high: 1, low: 1), source: "pending_route", at: .milliseconds(2), decision: .suppressedByConsumedSet)
        let workload = try TraceReader.read(bytes: recorder.sink.bytes, fileName: "odd.csv")
        #expect(workload.events.map(\.time) == [.zero, .milliseconds(1), .milliseconds(1), .milliseconds(2)])
        #expect(workload.source(of: workload.events[0]) == "a_b_c")
        #expect(workload.events[3].fingerprint == workload.events[0].fingerprint)
    }
}

// BEGIN Guides/TraceFormat.md file sink
/// Appends a trace to a file, creating it if needed.
struct FileTraceSink: TraceSink {
    let handle: FileHandle

    init(url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        try? handle.write(contentsOf: Data(bytes))
    }
}
// END Guides/TraceFormat.md file sink

@Suite struct FileTraceSinkExampleTests {
    @MainActor @Test func aRecordedFileReadsBack() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = TraceRecorder(sink: try FileTraceSink(url: url), routes: .hashed())
        let clock = ManualClock()
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock), recorder: recorder)
        let envelope = UUID()
        #expect(dedupe.receivePayload(route: "item:42", envelope: envelope, source: "tap") == .navigated)
        clock.advance(by: .milliseconds(180))
        #expect(dedupe.receiveEmit(envelope: envelope, source: "pending_route") == .suppressedByConsumedSet)
        try recorder.withSink { try $0.handle.close() }
        let workload = try TraceReader.read(url: url)
        #expect(workload.events.map(\.kind) == [.payload, .emit])
        #expect(workload.events.map(\.time) == [.zero, .milliseconds(180)])
    }

    @Test func theGuideShowsTheTestedSinkVerbatim() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let guideURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Guides/TraceFormat.md")
        let guide = try String(contentsOf: guideURL, encoding: .utf8)
        func lines(_ text: Substring) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }
        let all = lines(source[...])
        let begin = all.firstIndex { $0.hasPrefix("// BEGIN Guides/TraceFormat.md file sink") }!
        let end = all.firstIndex { $0.hasPrefix("// END Guides/TraceFormat.md file sink") }!
        let tested = all[(begin + 1)..<end]
        let marker = "<!-- file sink: compiled and run by Tests/DedupeWorkloadsTests/TraceRecorderRoundTripTests.swift -->"
        guard let markerRange = guide.range(of: marker) else {
            Issue.record("Guides/TraceFormat.md has no file sink example")
            return
        }
        let after = lines(guide[markerRange.upperBound...])
        let open = after.firstIndex { $0.hasPrefix("```") }!
        let close = after[(open + 1)...].firstIndex { $0.hasPrefix("```") }!
        #expect(Array(after[(open + 1)..<close]) == ["import Foundation", "import PushDedupe", ""] + Array(tested),
                "Guides/TraceFormat.md's file sink differs from the tested one: copy it again")
    }
}
