import PushDedupe
import Testing
@testable import DedupeWorkloads

/// The optional `push_id` and `suppressed` columns, `background` lines, and the trace's own
/// envelope tokens (`Guides/TraceFormat.md`).
@Suite struct TracePushColumnTests {
    static let header8 = "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed"

    /// A recorded session in the 8-column form: a push delivered twice (the second suppressed by
    /// the window), an emit inheriting its push, one naming it, an in-app navigation, a
    /// background, a consume after it, a relaunch and the push delivered again.
    static let session = """
        # recorded
        time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed
        0,payload,e1,item:1,tap,,msg-17,
        0.4,payload,e2,item:1,foreground,,msg-17,window
        12,emit,e1,,pending_route,,,consumed-set
        13,emit,e1,item:1,ready_callback,,msg-17,consumed-set
        20,payload,b1,document:3,button,,,
        30,background,,,,,,
        31,payload,6ba7b810-9dad-41d1-80b4-00c04fd430c8,item:2,content_available,,h0123456789abcdef0123456789abcdef,
        259200000,relaunch,,,,,,
        259200120,payload,e3,item:1,initial_notification,,msg-17,consumed-set

        """

    func read(_ text: String, _ name: String = "t.csv") throws(TraceError) -> Workload {
        try TraceReader.read(bytes: Array(text.utf8), fileName: name)
    }

    @Test func pushIDsSuppressionsAndBackgroundsImport() throws {
        let workload = try read(Self.session)
        #expect(workload.hasPushIDs)
        #expect(workload.pushes == [EnvelopeID(token: "msg-17"), EnvelopeID(token: "h0123456789abcdef0123456789abcdef")])
        #expect(workload.events.map(\.push) == [0, 0, 0, 0, WorkloadEvent.noPush, WorkloadEvent.noPush, 1, WorkloadEvent.noPush, 0])
        #expect(workload.events.map(\.kind) == [.payload, .payload, .emit, .emit, .payload, .background, .payload, .relaunch, .payload])
        #expect(workload.events[5] == .background(at: .milliseconds(30)))
        #expect(workload.recordedSuppressions == [
            .init(event: 1, layer: .window), .init(event: 2, layer: .consumedSet), .init(event: 3, layer: .consumedSet),
            .init(event: 8, layer: .consumedSet),
        ])
        // Push-id identity makes the three deliveries of msg-17 one envelope; minted, three.
        let deliveries = workload.events.filter { $0.push == 0 && $0.kind == .payload }
        #expect(Set(deliveries.map(\.envelope)).count == 3)
        #expect(Set(deliveries.map { workload.key(of: $0, .pushID) }) == [EnvelopeID(token: "msg-17")])
        #expect(workload.firstInconsistency() == nil)
    }

    @Test func theTracesOwnTokensAreKept() throws {
        let workload = try read(Self.session)
        #expect(workload.token(of: EnvelopeID(token: "e1")) == "e1")
        #expect(workload.token(of: EnvelopeID(token: "msg-17")) == "msg-17")
        let uuid = EnvelopeID(token: "6ba7b810-9dad-41d1-80b4-00c04fd430c8")
        #expect(workload.token(of: uuid) == uuid.description)
        // Canonical UUIDs are not stored: the table holds only what the UUID text cannot say.
        #expect(workload.envelopeTokens[uuid] == nil)
        #expect(workload.envelopeTokens.count == 6)
    }

    /// Export writes the trace's own tokens, push ids and suppressions back: the same lines.
    @Test func aRecordedSessionExportsAsItWasRead() throws {
        let workload = try read(Self.session)
        let written = String(decoding: TraceWriter.encode(workload), as: UTF8.self).split(separator: "\n").dropFirst()
        let original = Self.session.split(separator: "\n").dropFirst()
        // The writer names every emit's fingerprint and push, which the trace may leave empty.
        #expect(Array(written) == original.map {
            $0 == "12,emit,e1,,pending_route,,,consumed-set" ? "12,emit,e1,item:1,pending_route,,msg-17,consumed-set" : $0
        })
        let again = try TraceReader.read(bytes: TraceWriter.encode(workload), fileName: "t.csv")
        #expect(again.resolvedEvents == workload.resolvedEvents && again.recordedSuppressions == workload.recordedSuppressions)
    }

    @Test func sixColumnTracesParseWithoutPushIDs() throws {
        let workload = try read("""
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,a1,item:1,tap,new
            5,background,,,,
            6,emit,a1,,pending_route,dup

            """)
        #expect(!workload.hasPushIDs && workload.pushes.isEmpty)
        #expect(workload.events.allSatisfy { $0.push == WorkloadEvent.noPush })
        #expect(workload.recordedSuppressions.isEmpty)
        #expect(workload.events[1] == .background(at: .milliseconds(5)))
        // Without push ids or suppressions the writer keeps the 6-column form.
        #expect(String(decoding: TraceWriter.encode(workload), as: UTF8.self).contains("\ntime_ms,kind,envelope,fingerprint,source,truth\n"))
    }

    @Test func sevenColumnTracesEndWithThePushID() throws {
        let workload = try read("""
            time_ms,kind,envelope,fingerprint,source,truth,push_id
            0,payload,a1,item:1,tap,new,p1
            1,payload,a2,item:1,cold_launch,dup,p1
            2,relaunch,,,,,

            """)
        #expect(workload.pushes == [EnvelopeID(token: "p1")] && workload.events.prefix(2).allSatisfy { $0.push == 0 })
        #expect(String(decoding: TraceWriter.encode(workload), as: UTF8.self).contains("\n" + Self.header8 + "\n"))
    }

    @Test func generatedPushIDsAreWrittenAsCanonicalUUIDs() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "multi-token-duplicate-delivery")).workload(seed: 1)
        let lines = String(decoding: TraceWriter.encode(workload), as: UTF8.self).split(separator: "\n")
        #expect(lines[1] == Self.header8)
        let first = lines[2].split(separator: ",", omittingEmptySubsequences: false)
        #expect(first.count == 8 && first[6] == workload.pushes[0].description && first[7].isEmpty)
    }

    @Test func pushIDDigestsMatchEnvelopeIDOfTheToken() {
        var random = SplitMix64(seed: 12)
        let alphabet = Array("abcdefABCDEF0123456789-_xyz".utf8)
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = Array(EnvelopeID(high: random.next(), low: random.next()).description.utf8)
                if round % 2 == 0 { bytes = bytes.map { $0 >= UInt8(ascii: "a") ? $0 - 32 : $0 } }
            } else {
                bytes = (0..<(1 + random.uniformInt(below: 40))).map { _ in alphabet[random.uniformInt(below: alphabet.count)] }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(TraceFormat.envelopeID(ofToken: bytes[...]) == EnvelopeID(token: text), "\(text)")
        }
    }
}

/// Each malformed class of the push columns fails with `FILE:LINE: reason`.
@Suite struct TracePushColumnMalformedTests {
    /// Good lines 3–5 of an 8-column trace, then `line` as line 6.
    static func trace(_ line: String) -> [UInt8] {
        Array("""
            # malformed
            time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed
            0,payload,a1,item:1,tap,new,p1,
            1,payload,b1,document:1,button,new,,
            7,emit,a1,,pending_route,dup,,consumed-set
            \(line)
            9,payload,a9,item:9,tap,new,p9,

            """.utf8)
    }

    static let cases: [(String, TraceError.Kind)] = [
        ("8,payload,a2,item:1,tap,new,p.1,", .invalidField),
        ("8,payload,a2,item:1,tap,new,p 1,", .invalidField),
        ("8,payload,a2,item:1,tap,new,\(String(repeating: "p", count: 65)),", .overlongField),
        ("8,payload,a2,item:1,tap,new,p1,yes", .invalidField),
        ("8,payload,a2,item:1,tap,new,p1,Window", .invalidField),
        ("8,emit,a1,,tap,dup,,window", .invalidField),
        ("8,emit,a1,,tap,dup,p2,", .pushMismatch),
        ("8,emit,b1,,tap,dup,p1,", .pushMismatch),
        ("8,payload,a2,item:1,tap,new", .wrongColumnCount),
        ("8,payload,a2,item:1,tap,new,p1", .wrongColumnCount),
        ("8,payload,a2,item:1,tap,new,p1,,", .wrongColumnCount),
        ("8,background,,,,", .wrongColumnCount),
        ("8,background,a1,,,,,", .invalidField),
        ("8,background,,item:1,,,,", .invalidField),
        ("8,background,,,tap,,,", .invalidField),
        ("8,background,,,,new,,", .invalidField),
        ("8,background,,,,,p1,", .invalidField),
        ("8,background,,,,,,window", .invalidField),
        ("8,relaunch,,,,,p1,", .invalidField),
        ("8,relaunch,,,,,,consumed-set", .invalidField),
        ("4.5,background,,,,,,", .decreasingTime),
        ("8,Background,,,,,,", .unknownKind),
        // A push id and an envelope, or two push ids, that map to one id under different tokens.
        ("8,payload,a2,item:1,tap,new,\(EnvelopeID(token: "p1").description),", .envelopeTokenCollision),
        ("8,payload,a2,item:1,tap,new,\(EnvelopeID(token: "a1").description),", .envelopeTokenCollision),
        ("8,payload,\(EnvelopeID(token: "p1").description),item:1,tap,new,,", .envelopeTokenCollision),
    ]

    @Test(arguments: cases)
    func malformedLineIsRejectedWithItsLineNumber(line: String, kind: TraceError.Kind) {
        #expect { try TraceReader.read(bytes: Self.trace(line), fileName: "bad.csv") } throws: { error in
            guard let error = error as? TraceError else { return false }
            return error.kind == kind && error.line == 6 && error.description.hasPrefix("bad.csv:6: ")
        }
    }

    @Test func theGoodLinesAroundEachCaseDoImport() throws {
        for line in ["8,payload,a2,item:1,tap,new,p1,window", "8,emit,a1,,tap,dup,p1,", "8,background,,,,,,",
                     "8,payload,a2,item:1,tap,new,p1,"] {
            let workload = try TraceReader.read(bytes: Self.trace(line), fileName: "good.csv")
            #expect(workload.events.count == 5 && workload.firstInconsistency() == nil, "\(line)")
        }
    }

    @Test func theMismatchNamesBothPushIDs() {
        #expect { try TraceReader.read(bytes: Self.trace("8,emit,a1,,tap,dup,p2,"), fileName: "m.csv") } throws: { error in
            (error as? TraceError)?.description == "m.csv:6: emit push_id 'p2' differs from its payload's on line 3 ('p1')"
        }
        #expect { try TraceReader.read(bytes: Self.trace("8,emit,b1,,tap,dup,p1,"), fileName: "m.csv") } throws: { error in
            (error as? TraceError)?.description == "m.csv:6: emit push_id 'p1' differs from its payload's on line 4 (none)"
        }
    }

    @Test func aWorkloadWithAnUnwritableTokenIsRefused() {
        let event = WorkloadEvent(time: .milliseconds(0), kind: .payload, envelope: EnvelopeID(high: 1, low: 2),
                                  fingerprint: RouteFingerprint(route: "a"), route: 0, source: 0, truth: .new)
        let workload = Workload(name: "w", summary: "", routes: ["a"], sources: ["tap"], events: [event],
                                envelopeTokens: [EnvelopeID(high: 1, low: 2): "a,b"])
        #expect(TraceWriter.unrepresentableLabel(in: workload) != nil)
    }
}
