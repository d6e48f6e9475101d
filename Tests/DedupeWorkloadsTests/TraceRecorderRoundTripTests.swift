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

    static func replay(_ workload: Workload) -> [RoutingDecision] {
        var pipeline = TwoLayerPipeline(window: HashDequeWindow(preset: .standard), consumed: FIFOSet(preset: .compact))
        return workload.events.map { event in
            switch event.kind {
            case .payload: pipeline.receivePayload(event.fingerprint, envelope: event.envelope, at: event.time)
            case .emit: pipeline.receiveEmit(envelope: event.envelope, at: event.time)
            }
        }
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
        recorder.recordPayload(RouteFingerprint(route: "item:1"), envelope: EnvelopeID(high: 1, low: 1), source: "a,b\tc", at: .zero)
        recorder.recordPayload(route: String(repeating: "x", count: 500), envelope: EnvelopeID(high: 1, low: 2), source: String(repeating: "s", count: 500), at: .milliseconds(1))
        recorder.recordPayload(route: "", envelope: EnvelopeID(high: 1, low: 3), source: "", at: .milliseconds(-5))
        recorder.recordEmit(envelope: EnvelopeID(high: 1, low: 1), source: "pending_route", at: .milliseconds(2))
        let workload = try TraceReader.read(bytes: recorder.sink.bytes, fileName: "odd.csv")
        #expect(workload.events.map(\.time) == [.zero, .milliseconds(1), .milliseconds(1), .milliseconds(2)])
        #expect(workload.source(of: workload.events[0]) == "a_b_c")
        #expect(workload.events[3].fingerprint == workload.events[0].fingerprint)
    }
}
