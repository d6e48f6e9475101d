import PushDedupe
import Testing
@testable import DedupeHarness

/// The memory pass's peak from per-thread byte totals, against a model that knows every block.
@Suite struct EventPeakTests {
    @Test func namedPhases() {
        // Level 600 at the start.
        var peak = _EventPeak(start: (allocated: 1_000, deallocated: 400))
        // 500 allocated, then 500 freed: all 500 were live at once.
        peak.record(after: (allocated: 1_500, deallocated: 900))
        #expect(peak.bytes == 500)
        // 100 allocated and 600 freed: at most 100 above the start level.
        peak.record(after: (allocated: 1_600, deallocated: 1_500))
        #expect(peak.bytes == 500)
        // Below the start level: the peak never goes negative.
        var shrinking = _EventPeak(start: (allocated: 1_000, deallocated: 0))
        shrinking.record(after: (allocated: 1_000, deallocated: 300))
        #expect(shrinking.bytes == 0)
    }

    /// Seeded random phases, each allocating blocks and then freeing some of the live ones (as a
    /// doubling table does): the tracked peak equals the model's true peak exactly.
    @Test(arguments: UInt64(1)...40)
    func equalsTheTruePeakWhenPhasesFreeAfterAllocating(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var allocated: UInt64 = random.next() % 10_000
        var deallocated: UInt64 = random.next() % (allocated + 1)
        var live: [UInt64] = []
        let startLevel = Int(allocated - deallocated)
        var truePeak = 0
        var peak = _EventPeak(start: (allocated, deallocated))
        for _ in 0..<Int(random.next() % 60) {
            for _ in 0..<Int(random.next() % 4) {
                let size = 16 &* (1 &+ random.next() % 256)
                live.append(size)
                allocated &+= size
                truePeak = max(truePeak, Int(allocated - deallocated) - startLevel)
            }
            for _ in 0..<Int(random.next() % 4) where !live.isEmpty {
                deallocated &+= live.remove(at: Int(random.next() % UInt64(live.count)))
            }
            peak.record(after: (allocated, deallocated))
        }
        #expect(peak.bytes == truePeak)
    }
}
