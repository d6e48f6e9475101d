import Foundation
import PushDedupe
import Testing
@testable import DedupeHarness

#if canImport(Glibc)
import Glibc
#endif

/// jemalloc cannot be `dlopen`ed into this running process (initial-exec TLS), so these tests
/// re-run the test executable with jemalloc preloaded and only `JemallocProbe` enabled.
@Suite struct JemallocStatisticsTests {
    @Test func bindingRejectsAnAllocatorThatDoesNotAnswer() {
        let refusing = Mallctl { _, _, _, _, _ in 2 }  // ENOENT for every name
        #expect(JemallocStatistics(mallctl: refusing) == nil)
    }

    @Test func countersAreExactInAPreloadedChild() throws {
        #if os(Linux)
        guard let library = ChildProcess.jemallocLibraryPath() else {
            // .ci/run installs libjemalloc-dev, so there a missing library is a broken install.
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("CI=true but no preloadable libjemalloc.so.2: the jemalloc path went untested")
            }
            print("skipped: no preloadable libjemalloc.so.2, the jemalloc path is untested here")
            return
        }
        let result = try ChildProcess.run(
            executable: ChildProcess.currentExecutablePath(),
            arguments: ["--testing-library", "swift-testing", "--filter", "JemallocProbe"],
            environment: ChildProcess.preloadEnvironment(library: library).merging([JemallocProbeSwitch.variable: "1"]) { $1 },
            input: Data())
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(result.status == 0, "child failed:\n\(output)\n\(String(decoding: result.error, as: UTF8.self))")
        // The probe prints this after its checks, so a child that ran no test at all fails here.
        #expect(output.contains("jemalloc-probe: ran"), "child output:\n\(output)")
        #else
        print("skipped: the jemalloc child is run on Linux only")
        #endif
    }
}

/// The environment variable that enables `JemallocProbe` in the child.
enum JemallocProbeSwitch {
    static let variable = "PUSHDEDUPE_JEMALLOC_PROBE"
    static var isOn: Bool { ProcessInfo.processInfo.environment[variable] == "1" }
}

/// Runs only inside the child started above, where jemalloc serves `malloc`.
// Serialized: the probe checks process-wide counts, which another test running beside it moves.
@Suite(.enabled(if: JemallocProbeSwitch.isOn, "only in the child with jemalloc preloaded"), .serialized)
struct JemallocProbe {
    /// Sizes from the smallest class through cached large ones to uncached large ones.
    static let sizes = [8, 24, 100, 500, 3_000, 10_000, 20_000, 40_000, 100_000, 1 << 20]

    @Test func probe() throws {
        #if canImport(Glibc)
        let detected = AllocatorStatisticsDetector.detect()
        var statistics = try #require(detected as? JemallocStatistics)
        #expect(statistics.source.hasPrefix("jemalloc 5."))
        #expect(statistics.source == "jemalloc " + statistics.version.prefix { $0 != "-" })

        // Readings allocate nothing, not even the first ones after creation (the detector
        // created the first instance in this process): the count stays put across them.
        let firstCount = statistics.allocationCount() ?? -1
        _ = statistics.allocatedBytes()
        _ = statistics.threadByteCounters()?.totals
        #expect(statistics.allocationCount() == firstCount)

        // The first pass warms up what the test's own code allocates once (runtime metadata,
        // `sizes`); the second is checked.
        var blocks = [UnsafeMutableRawPointer?](repeating: nil, count: 1_000)
        var first = Pass()
        first.run(&statistics, blocks: &blocks)
        var pass = Pass()
        pass.run(&statistics, blocks: &blocks)

        #expect(pass.allocations == blocks.count)
        #expect(pass.allocatedBytes >= Self.sizes.reduce(0, +) * (blocks.count / Self.sizes.count))
        // Both count usable (size-class) bytes, so they agree exactly.
        #expect(UInt64(pass.allocatedBytes) == pass.threadAllocated)
        #expect(pass.threadDeallocated == pass.threadAllocated)
        #expect(pass.bytesLeftAfterFree == 0)
        #expect(pass.singleBlockAllocations == 1)
        #expect(pass.singleBlockBytes == 1 << 20)
        // The memory pass's peak from the thread totals: a 1 MiB block allocated and freed within
        // one phase counts in full, and 1,000 blocks of 64 B allocated in one phase and freed in the
        // next count exactly (jemalloc's own `thread.peak`, which samples every 64 KiB of traffic,
        // read 120,576 B of 128,000 B for 2,000 such blocks).
        #expect(pass.singleBlockPeak == 1 << 20)
        #expect(pass.smallBlocksPeak == blocks.count * 64)
        print("jemalloc-probe: ran (\(statistics.source))")
        #endif
    }

    /// Building a case allocates only what its strategies keep: a case of no-op strategies
    /// allocates nothing at all, not even transiently (an unguarded case used to build and drop a
    /// 3,584-byte navigation path, which every case's peak then counted).
    @Test func buildingAnUnguardedCaseAllocatesNothing() throws {
        #if canImport(Glibc)
        let statistics = try #require(AllocatorStatisticsDetector.detect() as? JemallocStatistics)
        func build() throws {
            let instance = try _ConcreteCase<_NoOpWindow, _NoOpConsumedSet>(
                mode: .twoLayer, window: WindowConfiguration(), consumed: ConsumedSetConfiguration())
            withExtendedLifetime(instance) {}
        }
        // The first build meets the runtime's one-time metadata allocations.
        try build()
        let before = statistics.threadByteCounters()!.totals
        try build()
        #expect(statistics.threadByteCounters()!.totals.allocated == before.allocated)
        #endif
    }

    /// Allocates `blocks.count` blocks of `sizes` in turn and frees them, then one 1 MiB block,
    /// then `blocks.count` blocks of 64 B for the peak, recording the counters' deltas. Readings default to -1 so a missing one fails the checks.
    struct Pass {
        var allocations = -1
        var allocatedBytes = -1
        var threadAllocated: UInt64 = 0
        var threadDeallocated: UInt64 = 0
        var bytesLeftAfterFree = -1
        var singleBlockAllocations = -1
        var singleBlockBytes = -1
        var singleBlockPeak = -1
        var smallBlocksPeak = -1

        mutating func run(_ statistics: inout JemallocStatistics, blocks: inout [UnsafeMutableRawPointer?]) {
            #if canImport(Glibc)
            let countBefore = statistics.allocationCount() ?? 0
            let bytesBefore = statistics.allocatedBytes() ?? 0
            let threadBefore = statistics.threadByteCounters()!.totals
            for index in blocks.indices {
                blocks[index] = malloc(JemallocProbe.sizes[index % JemallocProbe.sizes.count])
            }
            let countAfter = statistics.allocationCount() ?? 0
            let bytesAfter = statistics.allocatedBytes() ?? 0
            let threadAfter = statistics.threadByteCounters()!.totals
            for index in blocks.indices {
                free(blocks[index])
            }
            let threadFreed = statistics.threadByteCounters()!.totals
            allocations = countAfter - countBefore
            allocatedBytes = bytesAfter - bytesBefore
            threadAllocated = threadAfter.allocated - threadBefore.allocated
            threadDeallocated = threadFreed.deallocated - threadAfter.deallocated
            bytesLeftAfterFree = (statistics.allocatedBytes() ?? 0) - bytesBefore

            var singlePeak = _EventPeak(start: statistics.threadByteCounters()!.totals)
            let singleCountBefore = statistics.allocationCount() ?? 0
            let singleBytesBefore = statistics.allocatedBytes() ?? 0
            let block = malloc(1 << 20)
            singleBlockAllocations = (statistics.allocationCount() ?? 0) - singleCountBefore
            singleBlockBytes = (statistics.allocatedBytes() ?? 0) - singleBytesBefore
            free(block)
            singlePeak.record(after: statistics.threadByteCounters()!.totals)
            singleBlockPeak = singlePeak.bytes

            var smallPeak = _EventPeak(start: statistics.threadByteCounters()!.totals)
            for index in blocks.indices { blocks[index] = malloc(64) }
            smallPeak.record(after: statistics.threadByteCounters()!.totals)
            for index in blocks.indices { free(blocks[index]) }
            smallPeak.record(after: statistics.threadByteCounters()!.totals)
            smallBlocksPeak = smallPeak.bytes
            #endif
        }
    }
}
