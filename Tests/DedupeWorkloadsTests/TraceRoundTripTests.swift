import Foundation
import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct TraceRoundTripTests {
    @Test(arguments: ScenarioCatalogue.all.map(\.id))
    func exportThenImportGivesTheSameEvents(id: String) throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: 6, scale: 0.02)
        let bytes = TraceWriter.encode(workload)
        let imported = try TraceReader.read(bytes: bytes, fileName: "\(id).csv")
        #expect(imported.resolvedEvents == workload.resolvedEvents)
        // Pushes are listed in order of first delivery, the order an import rebuilds.
        #expect(imported.pushes == workload.pushes)
        #expect(imported.events.map(\.push) == workload.events.map(\.push))
        #expect(imported.hasPushIDs == workload.hasPushIDs)
        // Exported again, only the comment (the name) differs.
        let again = TraceWriter.encode(imported)
        #expect(again.drop { $0 != UInt8(ascii: "\n") }.elementsEqual(bytes.drop { $0 != UInt8(ascii: "\n") }))
        #expect(imported.name == "\(id).csv")
        #expect(imported.summary == "\(id): \(workload.summary)")
    }

    @Test func fileRoundTripStreamsAcrossChunks() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "mixed-default")).workload(seed: 1, scale: 0.5)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("mixed.csv")
        try TraceWriter.write(workload, to: url)
        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(bytes == TraceWriter.encode(workload))
        #expect(bytes.count > TraceReader.chunkSize / 8)
        let imported = try TraceReader.read(url: url)
        #expect(imported.resolvedEvents == workload.resolvedEvents)

        #expect { try TraceReader.read(url: directory.appendingPathComponent("missing.csv")) } throws: { error in
            (error as? TraceError)?.kind == .io
        }
    }

    @Test func anyChunkingGivesTheSameResult() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "ready-callback-replay")).workload(seed: 2)
        let bytes = TraceWriter.encode(workload)
        var random = SplitMix64(seed: 1)
        for _ in 0..<5 {
            var parser = TraceParser(fileName: "t.csv")
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + random.uniformInt(below: 200))
                try parser.consume(Array(bytes[start..<end]))
                start = end
            }
            #expect(try parser.finish().resolvedEvents == workload.resolvedEvents)
        }
    }

    @Test func envelopesAreWrittenAsCanonicalUUIDs() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "path-owned-twice")).workload(seed: 1)
        let text = String(decoding: TraceWriter.encode(workload), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines[0].hasPrefix("# path-owned-twice: "))
        #expect(lines[1] == "time_ms,kind,envelope,fingerprint,source,truth")
        let first = lines[2].split(separator: ",", omittingEmptySubsequences: false)
        #expect(first.count == 6)
        #expect(first[2] == workload.events[0].envelope.description)
        #expect(first[3] == workload.route(of: workload.events[0]))
    }

    @Test func millisecondsRoundTripEveryNanosecond() {
        var random = SplitMix64(seed: 4)
        for _ in 0..<5_000 {
            let nanoseconds = Int64(bitPattern: random.next()) >> Int64(random.uniformInt(below: 64))
            let text = Array(TraceFormat.milliseconds(nanoseconds).utf8)
            #expect(text.withUnsafeBufferPointer { TraceFormat.parseMilliseconds($0) } == nanoseconds)
        }
        #expect(TraceFormat.milliseconds(7_000_000) == "7")
        #expect(TraceFormat.milliseconds(4_500_000) == "4.5")
        #expect(TraceFormat.milliseconds(1) == "0.000001")
        #expect(TraceFormat.milliseconds(-1_500_000) == "-1.5")
        #expect(TraceFormat.milliseconds(.min) == "-9223372036854.775808")
        let parse = { (text: String) in Array(text.utf8).withUnsafeBufferPointer { TraceFormat.parseMilliseconds($0) } }
        #expect(parse("1.0000005") == 1_000_001)
        #expect(parse("1.00000049") == 1_000_000)
        #expect(parse("12") == 12_000_000)
        #expect(parse("9223372036854.775807") == .max)
        #expect(parse("9223372036854.775808") == nil)
        for bad in ["", "-", ".5", "1.", "1e3", "+1", "1.2.3", "0x10", " 1", "1 ", "١"] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }

    @Test func unknownTruthAndFreeLabelsImport() throws {
        let text = """
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,A,screen/é 1,my source,
            0.5,emit,A,,other,dup
            0.5,payload,b_2-x,screen/é 1,,new

            """
        let workload = try TraceReader.read(bytes: Array(text.utf8), fileName: "t.csv")
        #expect(workload.events.map(\.truth) == [.unknown, .dup, .new])
        #expect(workload.events[1].fingerprint == RouteFingerprint(route: "screen/é 1"))
        #expect(workload.sources == ["my source", "other", ""])
        #expect(workload.summary == "Imported trace t.csv")
        #expect(workload.firstInconsistency() == nil)
    }

    @Test func uuidTokensMatchWhateverTheirCase() throws {
        let text = """
            # crlf, BOM and letter case
            time_ms,kind,envelope,fingerprint,source,truth
            1,payload,6BA7B810-9DAD-11D1-80B4-00C04FD430C8,item:1,tap,new
            2,emit,6ba7b810-9dad-11d1-80b4-00c04fd430c8,item:1,pending_route,dup
            """.replacingOccurrences(of: "\n", with: "\r\n")
        let workload = try TraceReader.read(bytes: [0xef, 0xbb, 0xbf] + Array(text.utf8), fileName: "t.csv")
        #expect(workload.events.count == 2)
        #expect(workload.events[0].envelope == workload.events[1].envelope)
        #expect(workload.events[0].envelope.description == "6ba7b810-9dad-11d1-80b4-00c04fd430c8")
        #expect(workload.summary == "crlf, BOM and letter case")
    }
}

@Suite struct TraceWriterLabelTests {
    @Test func unrepresentableLabelsAreRefusedBeforeWriting() throws {
        let event = WorkloadEvent(time: .milliseconds(0), kind: .payload, envelope: EnvelopeID(high: 1, low: 2),
                                  fingerprint: RouteFingerprint(route: "a,b"), route: 0, source: 0, truth: .new)
        let workload = Workload(name: "w", summary: "", routes: ["a,b"], sources: ["tap"], events: [event])
        #expect(TraceWriter.unrepresentableLabel(in: workload) != nil)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UInt32.random(in: 0 ... .max)).csv")
        #expect { try TraceWriter.write(workload, to: url) } throws: { error in
            (error as? TraceError)?.kind == .invalidField
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let fine = Workload(name: "w", summary: "", routes: ["a b"], sources: [""], events: [])
        #expect(TraceWriter.unrepresentableLabel(in: fine) == nil)
        let longSource = Workload(name: "w", summary: "", routes: ["a"], sources: [String(repeating: "s", count: 129)], events: [])
        #expect(TraceWriter.unrepresentableLabel(in: longSource) != nil)
    }
}

/// Swift's `String ==` treats canonically equivalent spellings as equal; fingerprints digest the
/// exact bytes, so the reader must keep them apart.
@Suite struct TraceUnicodeTests {
    @Test func canonicallyEquivalentRoutesStayDistinct() throws {
        let composed = "content:caf\u{e9}"
        let decomposed = "content:cafe\u{301}"
        let text = """
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,a,\(composed),tap,new
            1,payload,b,\(decomposed),tap,new
            2,emit,b,\(decomposed),pending_route,dup
            """
        let workload = try TraceReader.read(bytes: Array(text.utf8), fileName: "unicode.csv")
        #expect(workload.routes.count == 2)
        #expect(workload.events[0].fingerprint == RouteFingerprint(route: composed))
        #expect(workload.events[1].fingerprint == RouteFingerprint(route: decomposed))
        #expect(workload.events[0].fingerprint != workload.events[1].fingerprint)
        #expect(Array(workload.routes[Int(workload.events[1].route)].utf8) == Array(decomposed.utf8))
    }
}

extension TraceRoundTripTests {
    /// Lifecycle lines carry only a time: every other field of the 8-column form is empty.
    @Test func lifecycleEventsAreWrittenAsATimeAndEmptyFields() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "stale-initial-notification")).workload(seed: 3)
        let lines = String(decoding: TraceWriter.encode(workload), as: UTF8.self).split(separator: "\n")
        #expect(lines[1] == "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed")
        for kind in [EventKind.relaunch, .background] {
            let count = workload.events.filter { $0.kind == kind }.count
            #expect(count > 0)
            let written = lines.filter { $0.contains(",\(kind),") }
            #expect(written.count == count)
            #expect(written.allSatisfy { $0.hasSuffix(",\(kind),,,,,,") })
        }
        #expect(workload.firstInconsistency() == nil)
    }
}
