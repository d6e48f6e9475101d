import Foundation
import Testing
@testable import DedupeHarness

/// Whether someone ran the tests themselves with jemalloc preloaded; the platform checks below
/// then have nothing to observe.
private let testsRunOnJemalloc = JemallocStatistics() != nil

@Suite(.enabled(if: !testsRunOnJemalloc, "the test process runs on jemalloc, not the platform allocator"))
struct AllocatorStatisticsTests {
    /// `swift test` runs on the platform allocator, so the detector falls back to it.
    @Test func detectorFallsBackToThePlatformAllocator() {
        let statistics = AllocatorStatisticsDetector.detect()
        #if canImport(Glibc)
        #expect(statistics?.source == "glibc-mallinfo2")
        #expect(statistics is MallinfoStatistics)
        #elseif canImport(Darwin)
        #expect(statistics?.source == "darwin-malloc-zone")
        #endif
    }

    /// A 64 MiB block moves the process-wide figure up and back down. Other tests run
    /// concurrently, so only three quarters of the block is required each way.
    @Test func platformAllocatedBytesFollowALargeBlock() throws {
        var statistics = try #require(AllocatorStatisticsDetector.platformStatistics())
        let size = 64 << 20
        let before = statistics.allocatedBytes() ?? 0
        let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let during = statistics.allocatedBytes() ?? 0
        block.deallocate()
        let after = statistics.allocatedBytes() ?? 0
        #expect(during - before >= size / 4 * 3)
        #expect(during - after >= size / 4 * 3)
    }

    @Test func platformFallbackCountsNothingItCannot() throws {
        var statistics = try #require(AllocatorStatisticsDetector.platformStatistics())
        #expect(statistics.allocationCount() == nil)
        #expect(statistics.threadByteCounters() == nil)
    }
}
