@testable import PushDedupe
import Testing

/// Rotation clears a generation by its dirty-word log when traffic is quiet and by a full wipe
/// when it is busy; both must leave nothing behind.
@Suite struct AgingBloomFilterRotationTests {
    @Test(arguments: [3, 20_000])
    func rotationLeavesNoBitBehind(idsPerGeneration: Int) throws {
        var filter = try AgingBloomFilter(configuration: .init(
            falsePositiveRate: 0.01, retention: .seconds(1), expectedRatePerSecond: 10_000))
        let logCapacity = filter.current.dirtyLog.count
        var time: Int64 = 0
        for generation in 0..<4 {
            for index in 0..<idsPerGeneration {
                _ = filter.consume(filterTestID(index, family: UInt64(20 + generation)), at: Timestamp(nanoseconds: time))
            }
            // Quiet traffic fits the log; busy traffic overflows it and takes the full wipe.
            #expect((filter.current.dirtyWords <= logCapacity) == (idsPerGeneration == 3))
            time += 1_000_000_000
        }
        // Two more rotations, one id each: every bit the four loaded generations set is gone.
        _ = filter.consume(filterTestID(0, family: 99), at: Timestamp(nanoseconds: time))
        _ = filter.consume(filterTestID(1, family: 99), at: Timestamp(nanoseconds: time + 1_000_000_000))
        for bits in [filter.previous, filter.current] {
            #expect(bits.setBits >= 1 && bits.setBits <= bits.hashCount)
            #expect(bits.setBits == bits.words.reduce(0) { $0 + $1.nonzeroBitCount })
            #expect(bits.dirtyWords == bits.words.filter { $0 != 0 }.count)
        }
    }

    /// A generation too small for a log (under 16 words) keeps no dirty-word count and must
    /// take the full wipe at every rotation.
    @Test func generationsWithoutALogAreWipedWhole() throws {
        var filter = try AgingBloomFilter(configuration: .init(
            falsePositiveRate: 0.01, retention: .seconds(1), expectedRatePerSecond: 10))
        #expect(filter.current.dirtyLog.isEmpty)
        for index in 0..<8 {
            _ = filter.consume(filterTestID(index, family: 40), at: Timestamp(nanoseconds: 0))
        }
        #expect(filter.current.setBits > 0 && filter.current.dirtyWords == 0)
        _ = filter.consume(filterTestID(0, family: 41), at: Timestamp(nanoseconds: 1_000_000_000))
        _ = filter.consume(filterTestID(1, family: 41), at: Timestamp(nanoseconds: 2_000_000_000))
        for bits in [filter.previous, filter.current] {
            #expect(bits.setBits >= 1 && bits.setBits <= bits.hashCount)
            #expect(bits.setBits == bits.words.reduce(0) { $0 + $1.nonzeroBitCount })
        }
    }
}
