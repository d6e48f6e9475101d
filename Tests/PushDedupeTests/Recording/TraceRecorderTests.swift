import Foundation
import PushDedupe
import Testing

/// The recorder's bytes, line by line. Parsing them back is `TraceRecorderRoundTripTests` in
/// DedupeWorkloadsTests.
@Suite struct TraceRecorderTests {
    static let first = UUID(uuidString: "1B4E28BA-2FA1-41D2-883F-0016D3CCA427")!
    static let second = UUID(uuidString: "6BA7B810-9DAD-41D1-80B4-00C04FD430C8")!
    /// 2023-11-14 22:13:20 UTC.
    static let origin = Date(timeIntervalSince1970: 1_700_000_000)

    static func text(_ recorder: TraceRecorder<TraceBuffer>) -> String {
        String(decoding: recorder.sink.bytes, as: UTF8.self)
    }

    /// The event lines, after the two comments and the header.
    static func events(_ recorder: TraceRecorder<TraceBuffer>) -> [String] {
        text(recorder).split(separator: "\n").dropFirst(3).map(String.init)
    }

    static func payload(_ recorder: TraceRecorder<TraceBuffer>, route: String, low: UInt64, source: String = "", at time: Timestamp = .zero) {
        recorder.recordPayload(route: route, envelope: EnvelopeID(high: 0, low: low), pushID: nil, source: source, at: time, decision: .navigated)
    }

    @MainActor @Test func aFacadeSessionIsWrittenInTheDocumentedFormat() {
        let clock = ManualClock()
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock), recorder: recorder)
        _ = dedupe.receivePayload(route: "item:42", pushID: "msg-1", source: "cold_launch")
        clock.advance(by: .nanoseconds(2_500_000))
        _ = dedupe.receivePayload(route: "item:42", pushID: "msg-1", source: "tap")
        clock.set(to: Timestamp(nanoseconds: 180_000_125))
        _ = dedupe.receiveEmit(pushID: "msg-1", source: "pending_route")
        clock.set(to: .milliseconds(190))
        _ = dedupe.receivePayload(route: "settings", envelope: Self.first, source: "button")
        _ = dedupe.receiveEmit(envelope: Self.first, source: "ready_callback")
        clock.set(to: .milliseconds(200))
        dedupe.didEnterBackground()
        #expect(Self.text(recorder) == """
            # Recorded by PushDedupe TraceRecorder (routes verbatim)
            # origin_unix_ms=1700000000000
            time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed
            0,payload,d1,item:42,cold_launch,,msg-1,
            2.5,payload,d2,item:42,tap,,msg-1,window
            180.000125,emit,d1,,pending_route,,,consumed-set
            190,payload,1b4e28ba-2fa1-41d2-883f-0016d3cca427,settings,button,,,
            190,emit,1b4e28ba-2fa1-41d2-883f-0016d3cca427,,ready_callback,,,consumed-set
            200,background,,,,,,

            """)
        #expect(recorder.skippedEvents == 0)
    }

    /// Every delivery of one push is a line of its own with a fresh envelope token, whatever the
    /// deduplicator decided; the push id ties them together.
    @MainActor @Test func everyDeliveryIsWrittenWithWhatSuppressedIt() {
        let clock = ManualClock()
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(clock), recorder: recorder)
        var decisions: [RoutingDecision] = []
        for step in 0..<4 {
            decisions.append(dedupe.receivePayload(route: "item:1", pushID: "A-1", source: "delivery\(step)"))
            clock.advance(by: .milliseconds(300))
        }
        #expect(decisions == [.navigated, .suppressedByWindow, .suppressedByConsumedSet, .suppressedByWindow])
        let lines = Self.events(recorder).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.map { $0[2] } == ["d1", "d2", "d3", "d4"])
        #expect(lines.allSatisfy { $0.count == 8 && $0[6] == "A-1" })
        #expect(lines.map { $0[7] } == ["", "window", "consumed-set", "window"])
    }

    /// A `UUID` given to a second payload: the app keyed the envelope on something stable, so the
    /// line gets a fresh token and the UUID as its push id.
    @Test func aUUIDGivenTwiceBecomesAPushID() {
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        let id = EnvelopeID(uuid: Self.second)
        recorder.recordPayload(route: "item:1", envelope: id, pushID: nil, source: "", at: .zero, decision: .navigated)
        recorder.recordPayload(route: "item:1", envelope: id, pushID: nil, source: "", at: .milliseconds(9), decision: .suppressedByConsumedSet)
        recorder.recordEmit(envelope: id, source: "", at: .milliseconds(10), decision: .suppressedByConsumedSet)
        #expect(Self.events(recorder) == [
            "0,payload,6ba7b810-9dad-41d1-80b4-00c04fd430c8,item:1,,,,",
            "9,payload,d1,item:1,,,6ba7b810-9dad-41d1-80b4-00c04fd430c8,consumed-set",
            "10,emit,6ba7b810-9dad-41d1-80b4-00c04fd430c8,,,,,consumed-set",
        ])
    }

    /// Ids outside `[A-Za-z0-9_-]{1,64}` are written as the canonical UUID of their 128 bits:
    /// equal ids stay equal, and `EnvelopeID(token:)` of the written token is the envelope the
    /// deduplicator used.
    @Test func pushIDsTheFormatCannotHoldAreWrittenAsTheirBits() {
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        let odd = ["0:1700000000%abc,def", String(repeating: "x", count: 65), "é", ""]
        for (index, pushID) in (odd + odd).enumerated() {
            recorder.recordPayload(
                route: "item:\(index)", envelope: EnvelopeID(token: pushID), pushID: pushID, source: "", at: .zero, decision: .navigated)
        }
        let written = Self.events(recorder).map { String($0.split(separator: ",", omittingEmptySubsequences: false)[6]) }
        #expect(written.count == 8)
        for (index, pushID) in odd.enumerated() {
            #expect(written[index] == EnvelopeID(token: pushID).description)
            #expect(written[index + odd.count] == written[index])
            #expect(EnvelopeID(token: written[index]) == EnvelopeID(token: pushID))
        }
        let verbatim = String(repeating: "x", count: 64)
        recorder.recordPayload(route: "r", envelope: EnvelopeID(token: verbatim), pushID: verbatim, source: "", at: .zero, decision: .navigated)
        #expect(Self.text(recorder).hasSuffix(",\(verbatim),\n"))
    }

    @Test func hashedRoutesBecomeStableDigestTokens() {
        let recorder = TraceRecorder(sink: TraceBuffer(), routes: .hashed(), startedAt: Self.origin)
        Self.payload(recorder, route: "item:42", low: 1)
        recorder.recordPayload(RouteFingerprint(route: "item:42"), envelope: EnvelopeID(uuid: Self.second), pushID: nil, source: "", at: .zero, decision: .navigated)
        let lines = Self.text(recorder).split(separator: "\n")
        #expect(lines[0] == "# Recorded by PushDedupe TraceRecorder (routes hashed)")
        // 0x45dadbf3065e6d59 is the documented digest of item:42 (DeterministicHashingTests).
        #expect(lines[3] == "0,payload,00000000-0000-0000-0000-000000000001,fp:45dadbf3065e6d59,,,,")
        #expect(lines[4] == "0,payload,6ba7b810-9dad-41d1-80b4-00c04fd430c8,fp:45dadbf3065e6d59,,,,")
        #expect(!Self.text(recorder).contains("item:42"))
    }

    @Test func aSaltChangesEveryTokenButKeepsThemConsistent() {
        let recorder = TraceRecorder(sink: TraceBuffer(), routes: .hashed(salt: 0x5eed), startedAt: Self.origin)
        Self.payload(recorder, route: "item:42", low: 0)
        Self.payload(recorder, route: "item:42", low: 1)
        recorder.recordPayload(RouteFingerprint(route: "item:42"), envelope: EnvelopeID(high: 0, low: 2), pushID: nil, source: "", at: .zero, decision: .navigated)
        let tokens = Self.events(recorder).map { $0.split(separator: ",")[3] }
        #expect(tokens[0] == tokens[1])
        #expect(tokens[0] != "fp:45dadbf3065e6d59" && tokens[2] != "fp:45dadbf3065e6d59")
        #expect(tokens.allSatisfy { $0.hasPrefix("fp:") && $0.count == 19 })
    }

    @Test func unwritableRoutesAndSourcesAreMadeValid() {
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        let long = String(repeating: "é", count: 129)
        Self.payload(recorder, route: "a,b", low: 1, source: "tap,\nx")
        Self.payload(recorder, route: "", low: 2, source: long)
        Self.payload(recorder, route: long, low: 3)
        Self.payload(recorder, route: String(long.dropFirst()), low: 4)
        let lines = Self.text(recorder).split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).map(String.init)
        #expect(lines[0] == "0,payload,00000000-0000-0000-0000-000000000001,\(RouteFingerprint(route: "a,b")),tap__x,,,")
        #expect(lines[1] == "0,payload,00000000-0000-0000-0000-000000000002,\(RouteFingerprint(route: "")),\(long.dropFirst()),,,")
        #expect(lines[2] == "0,payload,00000000-0000-0000-0000-000000000003,\(RouteFingerprint(route: long)),,,,")
        #expect(lines[3] == "0,payload,00000000-0000-0000-0000-000000000004,\(long.dropFirst()),,,,")
    }

    @Test func timesNeverDecreaseAndKeepEveryNanosecond() {
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        let times: [Int64] = [-1_500_000, 7_000_000, 4_500_000, 7_000_001, 9_223_372_036_854_775_807]
        for (index, time) in times.enumerated() {
            Self.payload(recorder, route: "r", low: UInt64(index), at: Timestamp(nanoseconds: time))
        }
        let written = Self.events(recorder).map { $0.split(separator: ",")[0] }
        #expect(written == ["-1.5", "7", "7", "7.000001", "9223372036854.775807"])
    }

    /// The one event the format cannot hold: an emit of an envelope no payload in the file made.
    @Test func emitsOfUnknownEnvelopesAreSkippedAndCounted() {
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        recorder.recordEmit(envelope: EnvelopeID(high: 3, low: 4), source: "pending_route", at: .zero, decision: .navigated)
        Self.payload(recorder, route: "item:1", low: 5)
        recorder.recordEmit(envelope: EnvelopeID(high: 0, low: 5), source: "", at: .zero, decision: .suppressedByConsumedSet)
        #expect(recorder.skippedEvents == 1)
        #expect(Self.events(recorder).count == 2)
    }

    struct FlushCountingSink: TraceSink {
        var lines = 0
        var flushes = 0
        mutating func write(_ bytes: UnsafeRawBufferPointer) { lines += 1 }
        mutating func flush() { flushes += 1 }
    }

    /// The sink gets one write per event and a flush at each background line, the last callback
    /// before a kill.
    @MainActor @Test func oneWritePerEventAndAFlushAtBackground() {
        let recorder = TraceRecorder(sink: FlushCountingSink(), startedAt: Self.origin)
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(ManualClock()), recorder: recorder)
        for index in 0..<10 { _ = dedupe.receivePayload(route: "item:\(index % 3)", pushID: "p\(index % 4)") }
        #expect(recorder.sink.lines == 11 && recorder.sink.flushes == 0)
        dedupe.didEnterBackground()
        #expect(recorder.sink.lines == 12 && recorder.sink.flushes == 1)
    }

    /// Seeded deliveries and emits over more envelopes than the token table first holds: every
    /// emit names the first delivery of its push, as a plain dictionary of first tokens says.
    @Test func emitsNameTheFirstDeliveryAcrossGrowth() {
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Self.origin)
        var random = SplitMix64(seed: 11)
        var reference: [String: String] = [:]
        var expected: [String] = []
        var delivery = 0
        for _ in 0..<6_000 {
            let pushID = "p\(Int.random(in: 0..<2_500, using: &random))"
            if reference[pushID] == nil || Bool.random(using: &random) {
                delivery += 1
                if reference[pushID] == nil { reference[pushID] = "d\(delivery)" }
                recorder.recordPayload(route: "r", envelope: EnvelopeID(token: pushID), pushID: pushID, source: "", at: .zero, decision: .navigated)
                expected.append("d\(delivery)")
            } else {
                recorder.recordEmit(envelope: EnvelopeID(token: pushID), source: "", at: .zero, decision: .suppressedByConsumedSet)
                expected.append(reference[pushID]!)
            }
        }
        let written = Self.events(recorder).map { String($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
        #expect(written == expected)
        #expect(recorder.skippedEvents == 0)
    }
}
