import PushDedupe
import Testing

/// Configurations that pass the basic checks but would once have crashed or been mis-sized.
@Suite struct FilterConfigurationLimitsTests {
    /// Sizes no phone could hold are refused, for every filter, before anything is allocated.
    @Test func unallocatableSizesThrowNamingTheParameter() {
        let huge = ConsumedSetConfiguration(capacity: 50_000_000_000, falsePositiveRate: 0.01)
        #expect { try BloomFilter(configuration: huge) } throws: { ($0 as? ConfigurationError)?.parameter == "capacity" }
        #expect { try CuckooFilter(configuration: huge) } throws: { ($0 as? ConfigurationError)?.parameter == "capacity" }
        #expect { try StableBloomFilter(configuration: huge) } throws: { ($0 as? ConfigurationError)?.parameter == "capacity" }
        let fast = ConsumedSetConfiguration(retention: .seconds(100_000), expectedRatePerSecond: 1e9)
        do {
            _ = try AgingBloomFilter(configuration: fast)
            Issue.record("aging-bloom accepted 10^14 ids per generation")
        } catch {
            #expect(error.parameter == "expectedRatePerSecond")
        }
    }

    /// The bits-per-entry sweep names the knob it turned.
    @Test func bitsPerEntryErrorsNameBitsPerEntry() {
        do {
            _ = try BloomSizing(expectedCount: 10, bitsPerEntry: 100)
            Issue.record("100 bits per entry (k = 69) was accepted")
        } catch {
            #expect(error.parameter == "bitsPerEntry")
        }
    }

    /// Each of two generations gets p′ = 1 − √(1 − p) ≈ p/2, even where 1 − p rounds to 1.
    @Test(arguments: [1e-18, 1e-16, 1e-3])
    func agingGenerationsKeepTinyRatesAccurate(rate: Double) throws {
        let filter = try AgingBloomFilter(configuration: .init(falsePositiveRate: rate, retention: .seconds(1), expectedRatePerSecond: 100))
        let direct = try BloomSizing(expectedCount: 100, falsePositiveRate: rate / (1 + (1 - rate).squareRoot()))
        #expect(filter.generationSizing == direct)
        let half = try BloomSizing(expectedCount: 100, falsePositiveRate: rate / 2)
        #expect(abs(filter.generationSizing.bitsPerEntry - half.bitsPerEntry) < 1e-3 * half.bitsPerEntry)
    }

    /// Each consume decrements a cell at most once, so a cell set to Max = 7 is still non-zero
    /// after 6 other consumes: such repeats are always caught, however full the filter.
    @Test func stableBloomCatchesEveryRepeatWithinMaxMinusOneConsumes() throws {
        var filter = try StableBloomFilter(configuration: .init(capacity: 64, falsePositiveRate: 0.1))
        for index in 0..<10_000 { _ = filter.consume(filterTestID(index, family: 9), at: .milliseconds(0)) }
        let others = StableBloomFilter.cellMaximum - 1
        var fresh = 0
        for trial in 0..<2_000 {
            let id = filterTestID(trial, family: 10)
            _ = filter.consume(id, at: .milliseconds(0))
            for _ in 0..<others {
                _ = filter.consume(filterTestID(fresh, family: 11), at: .milliseconds(0))
                fresh += 1
            }
            let repeatAccepted = filter.consume(id, at: .milliseconds(0))
            #expect(!repeatAccepted, "trial \(trial): repeat missed after \(others) other consumes")
            if repeatAccepted { return }
        }
    }
}
