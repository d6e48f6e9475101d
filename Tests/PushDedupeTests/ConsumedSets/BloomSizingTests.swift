import Foundation
import PushDedupe
import Testing

@Suite struct BloomSizingTests {
    /// m/n = −ln p / (ln 2)² and k = round((m/n)·ln 2), checked against the platform's `log`.
    @Test(arguments: [(0.1, 3), (0.01, 7), (0.001, 10)])
    func bitsPerEntryAndHashCount(rate: Double, hashes: Int) throws {
        let sizing = try BloomSizing(expectedCount: 100_000, falsePositiveRate: rate)
        let ratio = -Foundation.log(rate) / (Foundation.log(2.0) * Foundation.log(2.0))
        #expect(abs(sizing.bitsPerEntry - ratio) < 1e-12 * ratio)
        #expect(sizing.hashCount == hashes)
        #expect(sizing.bitCount % 64 == 0)
        #expect(sizing.bitCount >= Int((ratio * 100_000).rounded(.up)))
        #expect(sizing.bitCount < Int((ratio * 100_000).rounded(.up)) + 64)
        let expected = Foundation.pow(
            1 - Foundation.exp(-Double(hashes) * 100_000 / Double(sizing.bitCount)), Double(hashes))
        #expect(abs(sizing.expectedFalsePositiveRate - expected) < 1e-12)
        #expect(abs(sizing.expectedFalsePositiveRate - rate) < 0.1 * rate)
    }

    @Test func onePercentFitsInOneAndAQuarterBytesPerEntry() throws {
        for capacity in [1_000, 65_536, 1_000_000] {
            let sizing = try BloomSizing(expectedCount: capacity, falsePositiveRate: 0.01)
            #expect(sizing.bytesPerEntry <= 1.25)
            let filter = try BloomFilter(configuration: .init(capacity: capacity, falsePositiveRate: 0.01))
            #expect(Double(filter.footprint) / Double(capacity) <= 1.25, "capacity \(capacity)")
        }
        let sizing = try BloomSizing(expectedCount: 65_536, falsePositiveRate: 0.01)
        #expect(abs(sizing.bitsPerEntry - 9.585) < 0.001)
    }

    @Test func bitsPerEntrySweepUsesTheOptimalHashCount() throws {
        for (bits, hashes) in [(1.0, 1), (4.0, 3), (8.0, 6), (10.0, 7), (16.0, 11)] {
            let sizing = try BloomSizing(expectedCount: 10_000, bitsPerEntry: bits)
            #expect(sizing.hashCount == hashes, "\(bits) bits per entry")
            #expect(sizing.bitCount == Int(bits * 10_000 + 63) / 64 * 64)
        }
        // The same point, reached through a target rate.
        for bits in [2.0, 9.585, 20.0] {
            let rate = BloomSizing.falsePositiveRate(forBitsPerEntry: bits)
            let sizing = try BloomSizing(expectedCount: 10_000, falsePositiveRate: rate)
            #expect(abs(sizing.bitsPerEntry - bits) < 1e-9 * bits)
            #expect(abs(rate - Foundation.exp(-bits * Foundation.log(2.0) * Foundation.log(2.0))) < 1e-15)
        }
        // More bits per entry, fewer false positives.
        let rates = try [2.0, 4.0, 8.0, 16.0].map { try BloomSizing(expectedCount: 10_000, bitsPerEntry: $0).expectedFalsePositiveRate }
        #expect(rates == rates.sorted(by: >))
    }

    @Test func textbookRateAgreesWithThePlatformExp() throws {
        let sizing = try BloomSizing(expectedCount: 1_000, falsePositiveRate: 0.02)
        for count in [0, 1, 10, 500, 1_000, 5_000, 1_000_000] {
            let k = Double(sizing.hashCount)
            let expected = Foundation.pow(1 - Foundation.exp(-k * Double(count) / Double(sizing.bitCount)), k)
            let actual = sizing.falsePositiveRate(afterInserting: count)
            #expect(abs(actual - expected) <= 1e-13 * max(expected, 1e-300), "\(count) ids")
        }
    }

    @Test func invalidSizingThrows() {
        for rate in [0, 1, -1, .nan, .infinity] {
            #expect(throws: ConfigurationError.self) { try BloomSizing(expectedCount: 10, falsePositiveRate: rate) }
        }
        for bits in [0, -1, .nan, .infinity] {
            #expect(throws: ConfigurationError.self) { try BloomSizing(expectedCount: 10, bitsPerEntry: bits) }
        }
        #expect(throws: ConfigurationError.self) { try BloomSizing(expectedCount: -1, bitsPerEntry: 8) }
        #expect(throws: ConfigurationError.self) { try BloomSizing(expectedCount: 1 << 40, bitsPerEntry: 8) }
        // Rates so small they need more than 64 probes.
        #expect(throws: ConfigurationError.self) { try BloomSizing(expectedCount: 10, falsePositiveRate: 1e-30) }
        #expect(throws: Never.self) { try BloomSizing(expectedCount: 10, falsePositiveRate: 1e-15) }
    }
}
