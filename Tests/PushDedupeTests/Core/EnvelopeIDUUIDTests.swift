import Foundation
import PushDedupe
import Testing

@Suite struct EnvelopeIDUUIDTests {
    @Test func uuidsRoundTripThroughEnvelopeIDs() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(EnvelopeID(uuid: uuid).uuid == uuid)
            #expect(UUID(EnvelopeID(uuid: uuid)) == uuid)
            #expect(EnvelopeID(uuid: uuid).description == uuid.uuidString.lowercased())
        }
    }

    @Test(arguments: [
        EnvelopeID(high: 0, low: 0), EnvelopeID(high: .max, low: .max), EnvelopeID(high: 1, low: 0),
        EnvelopeID(high: 0, low: 1), EnvelopeID(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210),
    ])
    func envelopeIDsRoundTripThroughUUIDs(_ id: EnvelopeID) {
        #expect(EnvelopeID(uuid: id.uuid) == id)
        #expect(id.uuid.uuidString.lowercased() == id.description)
    }

    @Test func seededIDsRoundTrip() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<1_000 {
            let id = EnvelopeID(high: random.next(), low: random.next())
            #expect(EnvelopeID(uuid: UUID(id)) == id)
        }
    }

    @Test func bytesAreBigEndianHalves() {
        let id = EnvelopeID(high: 0x0011_2233_4455_6677, low: 0x8899_aabb_ccdd_eeff)
        #expect(id.uuid.uuidString == "00112233-4455-6677-8899-AABBCCDDEEFF")
    }
}
