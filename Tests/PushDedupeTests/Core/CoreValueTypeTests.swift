import Foundation
import PushDedupe
import Testing

/// Golden values were computed independently (a few lines of Python implementing the documented
/// FNV-1a 64 + SplitMix64 finalizer), so a change to the hash fails here before it silently
/// changes every report.
@Suite struct DeterministicHashingTests {
    @Test func routeFingerprintsMatchTheDocumentedHash() {
        #expect(RouteFingerprint(route: "item:42").rawValue == 0x45da_dbf3_065e_6d59)
        #expect(RouteFingerprint(route: "content:7").rawValue == 0xd812_13cb_521b_0f95)
        #expect(RouteFingerprint(route: "").rawValue == 0xf52a_15e9_a9b5_e89b)
        #expect(RouteFingerprint(route: "item:42"[...]) == RouteFingerprint(route: "item:42"))
    }

    @Test func splitMix64MatchesTheReferenceSequence() {
        var random = SplitMix64(seed: 0)
        #expect([random.next(), random.next(), random.next()] == [
            0xe220_a839_7b1d_cdaf, 0x6e78_9e6a_a1b9_65f4, 0x06c4_5d18_8009_454f,
        ])
    }
}

@Suite struct EnvelopeIDTests {
    let uuid = UUID(uuidString: "F47AC10B-58CC-4372-A567-0E02B2C3D479")!

    @Test func uuidBitsAreBigEndianHalves() {
        let id = EnvelopeID(uuid: uuid)
        #expect(id.high == 0xf47a_c10b_58cc_4372)
        #expect(id.low == 0xa567_0e02_b2c3_d479)
        // Computed independently: mix64(high ^ (low * 0x9e3779b97f4a7c15 mod 2^64)) in Python.
        #expect(id.hash64 == 0xdf88_d2e8_fa75_47f1)
    }

    @Test func canonicalUUIDTokensMapToTheUUIDsBits() {
        #expect(EnvelopeID(token: "f47ac10b-58cc-4372-a567-0e02b2c3d479") == EnvelopeID(uuid: uuid))
        #expect(EnvelopeID(token: "F47AC10B-58CC-4372-A567-0E02B2C3D479") == EnvelopeID(uuid: uuid))
        #expect(EnvelopeID(uuid: uuid).description == "f47ac10b-58cc-4372-a567-0e02b2c3d479")
    }

    @Test func otherTokensUseTwoSeededDigests() {
        let id = EnvelopeID(token: "push-123")
        #expect(id.high == 0xe853_55c6_c24f_078e)
        #expect(id.low == 0xf641_84b1_c2fb_2a78)
        // Almost-UUIDs are plain tokens, not parse errors.
        #expect(EnvelopeID(token: "f47ac10b-58cc-4372-a567-0e02b2c3d47g") != EnvelopeID(uuid: uuid))
        #expect(EnvelopeID(token: "f47ac10b_58cc-4372-a567-0e02b2c3d479") != EnvelopeID(uuid: uuid))
    }

    /// UUIDv4 fixes the version nibble and variant bits; after mixing, every one of the 16 low
    /// bits an index would use must be balanced.
    @Test func hash64BalancesLowBitsOfVersion4UUIDs() {
        var random = SplitMix64(seed: 7)
        let samples = 20_000
        var ones = [Int](repeating: 0, count: 16)
        for _ in 0..<samples {
            let high = (random.next() & ~0xf000) | 0x4000
            let low = (random.next() & ~(0b11 << 62)) | (0b10 << 62)
            let hash = EnvelopeID(high: high, low: low).hash64
            for bit in 0..<16 where hash & (1 << UInt64(bit)) != 0 { ones[bit] += 1 }
        }
        // 5 standard deviations of a fair coin over 20,000 draws is about 354.
        for count in ones { #expect(abs(count - samples / 2) < 354) }
    }
}

@Suite struct TimeTests {
    @Test func durationsConvertToWholeNanoseconds() {
        #expect(Duration.milliseconds(500).wholeNanoseconds == 500_000_000)
        #expect(Duration.nanoseconds(-3).wholeNanoseconds == -3)
        #expect(Duration.seconds(Int64.max).wholeNanoseconds == .max)
        #expect(Duration.seconds(Int64.min).wholeNanoseconds == .min)
    }

    @Test func millisecondTimestampsRoundToNanoseconds() {
        #expect(Timestamp.milliseconds(1.5).nanoseconds == 1_500_000)
        #expect(Timestamp.milliseconds(0.0000004).nanoseconds == 0)
        #expect(Timestamp.milliseconds(2) > Timestamp.milliseconds(1))
    }
}
