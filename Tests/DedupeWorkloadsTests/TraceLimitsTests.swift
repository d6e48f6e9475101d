import Testing
import PushDedupe
@testable import DedupeWorkloads

/// The edges of the trace format: the whole Int64 range of nanoseconds, and field lengths
/// counted in Unicode code points (scalars), not in user-perceived characters.
@Suite struct TraceLimitsTests {
    static func parse(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { TraceFormat.parseMilliseconds($0) }
    }

    static func trace(time: String = "0", fingerprint: String) -> [UInt8] {
        Array("time_ms,kind,envelope,fingerprint,source,truth\n\(time),payload,a1,\(fingerprint),tap,new\n".utf8)
    }

    /// −2⁶³ ns has no positive counterpart, so it needs its own bound.
    @Test func wholeInt64RangeOfNanosecondsParses() throws {
        #expect(Self.parse("-9223372036854.775808") == .min)
        #expect(Self.parse("-9223372036854.775807") == .min + 1)
        #expect(Self.parse("-9223372036854.775809") == nil)
        #expect(Self.parse("-9223372036854.7758075") == .min)  // rounds half away from zero
        #expect(Self.parse("-9223372036854.7758085") == nil)
        #expect(Self.parse("-0") == 0)
        let workload = try TraceReader.read(bytes: Self.trace(time: "-9223372036854.775808", fingerprint: "item:1"), fileName: "t.csv")
        #expect(workload.events.first?.time == Timestamp(nanoseconds: .min))
    }

    /// 128 code points pass however few characters they make; 129 fail, and the error says
    /// code points. `e` + U+0301 is one character of two code points.
    @Test func fingerprintLengthIsCountedInCodePoints() throws {
        let combining = String(repeating: "e\u{301}", count: 64)
        #expect(combining.count == 64 && combining.unicodeScalars.count == 128)
        _ = try TraceReader.read(bytes: Self.trace(fingerprint: combining), fileName: "t.csv")
        let over = combining + "e\u{301}"
        #expect(over.count == 65)
        #expect(throws: TraceError.self) { try TraceReader.read(bytes: Self.trace(fingerprint: over), fileName: "t.csv") }
        do {
            _ = try TraceReader.read(bytes: Self.trace(fingerprint: String(repeating: "x", count: 129)), fileName: "t.csv")
            Issue.record("a 129-code-point fingerprint was accepted")
        } catch {
            #expect(error.description == "t.csv:2: fingerprint is 129 Unicode code points long (at most 128)")
        }
    }
}
