import Foundation
import PushDedupe
import Testing

/// The recorder's bytes, line by line. Parsing them back is `TraceRecorderRoundTripTests` in
/// DedupeWorkloadsTests.
@Suite struct TraceRecorderTests {
    static let first = UUID(uuidString: "1B4E28BA-2FA1-41D2-883F-0016D3CCA427")!
    static let second = UUID(uuidString: "6BA7B810-9DAD-41D1-80B4-00C04FD430C8")!

    static func text(_ recorder: TraceRecorder<TraceBuffer>) -> String {
        String(decoding: recorder.sink.bytes, as: UTF8.self)
    }

    @MainActor @Test func aFacadeSessionIsWrittenInTheDocumentedFormat() {
        let clock = ManualClock()
        let recorder = TraceRecorder(sink: TraceBuffer())
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock), recorder: recorder)
        _ = dedupe.receivePayload(route: "item:42", envelope: Self.first, source: "cold_launch")
        clock.advance(by: .nanoseconds(2_500_000))
        _ = dedupe.receivePayload(route: "item:42", envelope: Self.second, source: "tap")
        clock.set(to: Timestamp(nanoseconds: 180_000_125))
        _ = dedupe.receiveEmit(envelope: Self.first, source: "pending_route")
        recorder.recordRelaunch(at: .milliseconds(200))
        #expect(Self.text(recorder) == """
            # Recorded by PushDedupe TraceRecorder (routes verbatim)
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,1b4e28ba-2fa1-41d2-883f-0016d3cca427,item:42,cold_launch,
            2.5,payload,6ba7b810-9dad-41d1-80b4-00c04fd430c8,item:42,tap,
            180.000125,emit,1b4e28ba-2fa1-41d2-883f-0016d3cca427,,pending_route,
            200,relaunch,,,,

            """)
        #expect(recorder.latestTime == .milliseconds(200))
        #expect(recorder.skippedEvents == 0)
    }

    @Test func hashedRoutesBecomeStableDigestTokens() {
        let recorder = TraceRecorder(sink: TraceBuffer(), routes: .hashed())
        recorder.recordPayload(route: "item:42", envelope: EnvelopeID(uuid: Self.first), source: "", at: .zero)
        recorder.recordPayload(RouteFingerprint(route: "item:42"), envelope: EnvelopeID(uuid: Self.second), source: "", at: .zero)
        let lines = Self.text(recorder).split(separator: "\n")
        #expect(lines[0] == "# Recorded by PushDedupe TraceRecorder (routes hashed)")
        // 0x45dadbf3065e6d59 is the documented digest of item:42 (DeterministicHashingTests).
        #expect(lines[2] == "0,payload,1b4e28ba-2fa1-41d2-883f-0016d3cca427,fp:45dadbf3065e6d59,,")
        #expect(lines[3] == "0,payload,6ba7b810-9dad-41d1-80b4-00c04fd430c8,fp:45dadbf3065e6d59,,")
        #expect(!Self.text(recorder).contains("item:42"))
    }

    @Test func aSaltChangesEveryTokenButKeepsThemConsistent() {
        let recorder = TraceRecorder(sink: TraceBuffer(), routes: .hashed(salt: 0x5eed))
        let ids = (0..<3).map { EnvelopeID(high: 7, low: UInt64($0)) }
        recorder.recordPayload(route: "item:42", envelope: ids[0], source: "", at: .zero)
        recorder.recordPayload(route: "item:42", envelope: ids[1], source: "", at: .zero)
        recorder.recordPayload(RouteFingerprint(route: "item:42"), envelope: ids[2], source: "", at: .zero)
        let tokens = Self.text(recorder).split(separator: "\n").dropFirst(2).map { $0.split(separator: ",")[3] }
        #expect(tokens[0] == tokens[1])
        #expect(tokens[0] != "fp:45dadbf3065e6d59" && tokens[2] != "fp:45dadbf3065e6d59")
        #expect(tokens.allSatisfy { $0.hasPrefix("fp:") && $0.count == 19 })
    }

    @Test func unwritableRoutesAndSourcesAreMadeValid() {
        let recorder = TraceRecorder(sink: TraceBuffer())
        let long = String(repeating: "é", count: 129)
        recorder.recordPayload(route: "a,b", envelope: EnvelopeID(high: 0, low: 1), source: "tap,\nx", at: .zero)
        recorder.recordPayload(route: "", envelope: EnvelopeID(high: 0, low: 2), source: long, at: .zero)
        recorder.recordPayload(route: long, envelope: EnvelopeID(high: 0, low: 3), source: "", at: .zero)
        recorder.recordPayload(route: String(long.dropFirst()), envelope: EnvelopeID(high: 0, low: 4), source: "", at: .zero)
        let lines = Self.text(recorder).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).map(String.init)
        #expect(lines[0] == "0,payload,00000000-0000-0000-0000-000000000001,\(RouteFingerprint(route: "a,b")),tap__x,")
        #expect(lines[1] == "0,payload,00000000-0000-0000-0000-000000000002,\(RouteFingerprint(route: "")),\(long.dropFirst()),")
        #expect(lines[2] == "0,payload,00000000-0000-0000-0000-000000000003,\(RouteFingerprint(route: long)),,")
        #expect(lines[3] == "0,payload,00000000-0000-0000-0000-000000000004,\(long.dropFirst()),,")
    }

    @Test func timesNeverDecreaseAndKeepEveryNanosecond() {
        let recorder = TraceRecorder(sink: TraceBuffer())
        let times: [Int64] = [-1_500_000, 7_000_000, 4_500_000, 7_000_001, 9_223_372_036_854_775_807]
        for (index, time) in times.enumerated() {
            recorder.recordPayload(route: "r", envelope: EnvelopeID(high: 1, low: UInt64(index)), source: "", at: Timestamp(nanoseconds: time))
        }
        let written = Self.text(recorder).split(separator: "\n").dropFirst(2).map { $0.split(separator: ",")[0] }
        #expect(written == ["-1.5", "7", "7", "7.000001", "9223372036854.775807"])
    }

    @Test func eventsTheFormatCannotHoldAreSkippedAndCounted() {
        let recorder = TraceRecorder(sink: TraceBuffer())
        let id = EnvelopeID(high: 3, low: 4)
        recorder.recordEmit(envelope: id, source: "pending_route", at: .zero)
        recorder.recordPayload(route: "item:1", envelope: id, source: "", at: .zero)
        recorder.recordPayload(route: "item:2", envelope: id, source: "", at: .zero)
        recorder.recordEmit(envelope: id, source: "", at: .zero)
        #expect(recorder.skippedEvents == 2)
        #expect(Self.text(recorder).split(separator: "\n").count == 4)
    }

    @Test func aLaterLaunchContinuesTheFileAfterARelaunchLine() {
        let recorder = TraceRecorder(continuing: TraceBuffer(), after: .milliseconds(200))
        recorder.recordPayload(route: "item:42", envelope: EnvelopeID(uuid: Self.first), source: "tap", at: .milliseconds(1))
        #expect(Self.text(recorder) == """
            200,relaunch,,,,
            201,payload,1b4e28ba-2fa1-41d2-883f-0016d3cca427,item:42,tap,

            """)
        #expect(recorder.latestTime == .milliseconds(201))
    }
}
