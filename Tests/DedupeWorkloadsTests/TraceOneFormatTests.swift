import Foundation
import PushDedupe
@testable import DedupeWorkloads
import Testing

/// The recorder and `TraceWriter` write one format through one line writer, and `TraceReader`
/// reads what the recorder writes.
@Suite struct TraceOneFormatTests {
    /// Payloads with and without push ids (so `d` tokens and UUID push ids), UUIDs given again,
    /// every decision, backgrounds and times with nanosecond fractions, negative ones included.
    static func recorded() -> TraceRecorder<TraceBuffer> {
        var random = SplitMix64(seed: 44)
        let recorder = TraceRecorder(sink: TraceBuffer(), startedAt: Date(timeIntervalSince1970: 1_700_000_000))
        var time: Int64 = -5_500_001
        var envelopes: [EnvelopeID] = []
        let decisions: [RoutingDecision] = [.navigated, .suppressedByWindow, .suppressedByConsumedSet]
        for index in 0..<2_000 {
            time += Int64(random.uniformInt(below: 3_000_000))
            let at = Timestamp(nanoseconds: time)
            if index % 97 == 96 {
                recorder.recordBackground(at: at)
                continue
            }
            let envelope = envelopes.isEmpty || random.bernoulli(0.8)
                ? EnvelopeID(high: random.next(), low: random.next()) : envelopes[random.uniformInt(below: envelopes.count)]
            envelopes.append(envelope)
            let pushID: String? = switch random.uniformInt(below: 3) {
            case 0: nil
            case 1: "p-\(random.uniformInt(below: 300))"
            default: EnvelopeID(high: random.next(), low: random.next()).description
            }
            recorder.recordPayload(
                route: "item:\(random.uniformInt(below: 50))", envelope: envelope, pushID: pushID,
                source: ["tap", "cold_launch", "", "pending_route"][random.uniformInt(below: 4)], at: at,
                decision: decisions[random.uniformInt(below: 3)])
        }
        return recorder
    }

    /// The lines after the leading comments.
    static func body(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("#") }.joined(separator: "\n")
    }

    @Test func theRecordersFileAndTheWritersExportAreTheSameBytes() throws {
        let recorded = Self.recorded().sink.bytes
        let workload = try TraceReader.read(bytes: recorded, fileName: "recorded.csv")
        #expect(workload.events.count == 2_000)
        #expect(workload.hasPushIDs && !workload.envelopeTokens.isEmpty && !workload.recordedSuppressions.isEmpty)
        #expect(workload.events.contains { $0.time < .zero && $0.time.nanoseconds % 1_000_000 != 0 })
        let exported = TraceWriter.encode(workload)
        #expect(Self.body(exported) == Self.body(recorded))
        #expect(exported.starts(with: Array("# recorded.csv: Recorded by PushDedupe TraceRecorder (routes verbatim)\n".utf8)))
    }

    @Test func messagesSpellTimesAsTheLineWriterDoes() {
        for nanoseconds: Int64 in [0, 1, -1, 7_000_000, 180_000_125, .max, .min] {
            let text = TraceFormat.milliseconds(nanoseconds)
            #expect(Array(text.utf8).withUnsafeBufferPointer { TraceFormat.parseMilliseconds($0) } == nanoseconds, "\(text)")
        }
    }
}
