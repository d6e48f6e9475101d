import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct TraceMalformedTests {
    /// Two good lines (3 and 4), then `line` as line 5.
    static func trace(_ line: String) -> [UInt8] {
        Array("""
            # malformed
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,a1,item:1,tap,new
            7,emit,a1,,pending_route,dup
            \(line)
            9,payload,a9,item:9,tap,new

            """.utf8)
    }

    static let cases: [(String, TraceError.Kind)] = [
        ("x1,payload,a2,item:1,tap,new", .badNumber),
        ("8.,payload,a2,item:1,tap,new", .badNumber),
        (",payload,a2,item:1,tap,new", .badNumber),
        ("4.5,payload,a2,item:2,tap,new", .decreasingTime),
        ("8,push,a2,item:1,tap,new", .unknownKind),
        ("8,Payload,a2,item:1,tap,new", .unknownKind),
        ("8,payload,a2,item:1,tap", .wrongColumnCount),
        ("8,payload,a2,item:1,tap,new,extra", .wrongColumnCount),
        ("8,payload,a2,item:1,tap,new,", .wrongColumnCount),
        ("8,emit,zz,,pending_route,dup", .unknownEnvelope),
        ("8,payload,a1,item:2,tap,new", .duplicateEnvelope),
        ("8,payload,\(String(repeating: "e", count: 65)),item:1,tap,new", .overlongField),
        ("8,payload,a2,\(String(repeating: "f", count: 129)),tap,new", .overlongField),
        ("8,payload,a2,item:1,\(String(repeating: "s", count: 129)),new", .overlongField),
        ("8,payload,a2,item:1,tap,\(String(repeating: "x", count: 70_000))", .overlongField),
        ("8,payload,a.2,item:1,tap,new", .invalidField),
        ("8,payload,,item:1,tap,new", .invalidField),
        ("8,payload,a2,,tap,new", .invalidField),
        ("8,payload,a2,item\u{1}:1,tap,new", .invalidField),
        ("8,payload,a2,item:1,tap,yes", .invalidField),
        ("8,emit,a1,item:2,tap,dup", .fingerprintMismatch),
        // A relaunch is `TIME,relaunch,,,,`: anything else on the line is malformed.
        ("8,relaunch,a2,,,", .invalidField),
        ("8,relaunch,,item:1,,", .invalidField),
        ("8,relaunch,,,tap,", .invalidField),
        ("8,relaunch,,,,new", .invalidField),
        ("8,relaunch,,,,unknown", .invalidField),
        ("8,relaunch,a1,item:1,tap,dup", .invalidField),
        ("8,relaunch,,,,,", .wrongColumnCount),
        ("8,relaunch,,,", .wrongColumnCount),
        ("8,relaunch", .wrongColumnCount),
        ("x,relaunch,,,,", .badNumber),
        (",relaunch,,,,", .badNumber),
        ("4.5,relaunch,,,,", .decreasingTime),
        ("8,Relaunch,,,,", .unknownKind),
        ("8, relaunch,,,,", .unknownKind),
    ]

    @Test(arguments: cases)
    func malformedLineIsRejectedWithItsLineNumber(line: String, kind: TraceError.Kind) {
        #expect { try TraceReader.read(bytes: Self.trace(line), fileName: "bad.csv") } throws: { error in
            guard let error = error as? TraceError else { return false }
            return error.kind == kind && error.line == 5 && error.fileName == "bad.csv"
                && error.description.hasPrefix("bad.csv:5: ")
        }
    }

    @Test func theGoodLinesAroundEachCaseDoImport() throws {
        let workload = try TraceReader.read(bytes: Self.trace("8,payload,a2,item:1,tap,new"), fileName: "good.csv")
        #expect(workload.events.count == 4)
    }

    @Test func decreasingTimeMessageNamesBothTimes() {
        #expect { try TraceReader.read(bytes: Self.trace("4.5,payload,a2,item:2,tap,new"), fileName: "file.csv") } throws: { error in
            (error as? TraceError)?.description == "file.csv:5: time_ms decreases (4.5 after 7)"
        }
    }

    @Test func invalidUTF8IsRejected() {
        var bytes = Self.trace("8,payload,a2,item:1,tap,new")
        let position = bytes.firstIndex(of: UInt8(ascii: "8"))!
        bytes.insert(contentsOf: [UInt8(ascii: "x"), 0xff], at: position + 13)
        #expect { try TraceReader.read(bytes: bytes, fileName: "bad.csv") } throws: { error in
            (error as? TraceError)?.kind == .invalidField && (error as? TraceError)?.line == 5
        }
    }

    @Test func headerProblems() {
        func kindAndLine(_ text: String) -> (TraceError.Kind, Int)? {
            do {
                _ = try TraceReader.read(bytes: Array(text.utf8), fileName: "h.csv")
                return nil
            } catch {
                return (error.kind, error.line)
            }
        }
        #expect(kindAndLine("")! == (.emptyFile, 0))
        #expect(kindAndLine("# just a comment\n\n")! == (.emptyFile, 0))
        #expect(kindAndLine("# c\ntime,kind,envelope,fingerprint,source,truth\n")! == (.badHeader, 2))
        #expect(kindAndLine("0,payload,a,item:1,tap,new\n")! == (.badHeader, 1))
        #expect(kindAndLine("time_ms,kind,envelope,fingerprint,source,truth,extra\n")! == (.badHeader, 1))
        #expect(kindAndLine("time_ms,kind,envelope,fingerprint,source,truth") == nil)
    }

    @Test func twoTokensForOneIDAreAnError() {
        // A non-UUID token and the UUID text of the id it maps to are different tokens for one id.
        let alias = EnvelopeID(token: "abc").description
        let text = """
            time_ms,kind,envelope,fingerprint,source,truth
            0,payload,abc,item:1,tap,new
            1,payload,\(alias),item:2,tap,new

            """
        #expect { try TraceReader.read(bytes: Array(text.utf8), fileName: "c.csv") } throws: { error in
            (error as? TraceError)?.kind == .envelopeTokenCollision && (error as? TraceError)?.line == 3
        }
        let emitText = text.replacingOccurrences(of: "1,payload,\(alias),item:2,tap,new", with: "1,emit,\(alias),,tap,dup")
        #expect { try TraceReader.read(bytes: Array(emitText.utf8), fileName: "c.csv") } throws: { error in
            (error as? TraceError)?.kind == .envelopeTokenCollision
        }
    }

    @Test func anErrorOnTheLastLineWithoutNewlineStillFails() {
        let text = "time_ms,kind,envelope,fingerprint,source,truth\n0,payload,a,item:1,tap,new\n1,emit,b,,tap,dup"
        #expect { try TraceReader.read(bytes: Array(text.utf8), fileName: "t.csv") } throws: { error in
            (error as? TraceError)?.kind == .unknownEnvelope && (error as? TraceError)?.line == 3
        }
    }
}

/// Random bytes and mutated traces: the reader must either import a consistent workload or throw
/// a ``TraceError`` pointing into the input, and never crash.
@Suite struct TraceFuzzTests {
    static let alphabet = Array("0123456789.,-_:#\n\r apyloademitnwduxAZ".utf8) + [0, 0xff, 0xc3, 0xa9, 0x7f]

    func check(_ bytes: [UInt8]) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        do {
            let workload = try TraceReader.read(bytes: bytes, fileName: "fuzz.csv")
            #expect(workload.firstInconsistency() == nil)
        } catch {
            #expect(error.line >= 0 && error.line <= lines)
            #expect(error.description.hasPrefix("fuzz.csv"))
        }
    }

    @Test func randomBytesNeverCrashTheReader() {
        var random = SplitMix64(seed: 99)
        let header = Array((TraceFormat.header + "\n").utf8)
        for round in 0..<400 {
            var bytes: [UInt8] = round % 2 == 0 ? header : []
            for _ in 0..<random.uniformInt(below: 300) {
                bytes.append(random.bernoulli(0.8)
                             ? Self.alphabet[random.uniformInt(below: Self.alphabet.count)]
                             : UInt8(truncatingIfNeeded: random.next()))
            }
            check(bytes)
        }
    }

    @Test func mutatedTracesNeverCrashTheReader() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "mixed-default")).workload(seed: 5, scale: 0.01)
        let original = TraceWriter.encode(workload)
        var random = SplitMix64(seed: 7)
        var accepted = 0
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<(1 + random.uniformInt(below: 3)) {
                let position = random.uniformInt(below: bytes.count)
                switch random.uniformInt(below: 3) {
                case 0: bytes[position] = Self.alphabet[random.uniformInt(below: Self.alphabet.count)]
                case 1: bytes.remove(at: position)
                default: bytes.insert(Self.alphabet[random.uniformInt(below: Self.alphabet.count)], at: position)
                }
            }
            do {
                _ = try TraceReader.read(bytes: bytes, fileName: "fuzz.csv")
                accepted += 1
            } catch {}
            check(bytes)
        }
        // Most single-byte edits break a line; some (inside a comment or a label) do not.
        #expect(accepted < 300)
    }
}

extension TraceMalformedTests {
    @Test func anEmitAfterARelaunchMayNameAnEnvelopeCreatedBeforeIt() throws {
        let workload = try TraceReader.read(bytes: Self.trace("8,relaunch,,,,\n8.5,emit,a1,,pending_route,dup"), fileName: "ok.csv")
        #expect(workload.events.map(\.kind) == [.payload, .emit, .relaunch, .emit, .payload])
        #expect(workload.events[2] == .relaunch(at: Timestamp(nanoseconds: 8_000_000)))
        #expect(workload.firstInconsistency() == nil)
    }

    @Test func anEmitAfterARelaunchOfAnEnvelopeNoPayloadCreatedIsRejected() {
        #expect { try TraceReader.read(bytes: Self.trace("8,relaunch,,,,\n8.5,emit,zz,,pending_route,dup"), fileName: "bad.csv") } throws: { error in
            guard let error = error as? TraceError else { return false }
            return error.kind == .unknownEnvelope && error.line == 6
        }
    }
}
