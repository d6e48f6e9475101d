@testable import DedupeHarness
import Testing
@testable import DedupeMaintenance

/// `dedupe-maintain live-set-sweep`'s ratios are read off the points of the same run, one per size, and a
/// missing strategy leaves its cell empty instead of inventing a figure.
@Suite struct LiveSetSweepTextTests {
    static func point(_ strategy: String, _ x: Double, _ nanoseconds: Double, _ dimension: SweepDimension = .windowLiveSetRepeats) -> SweepPoint {
        SweepPoint(dimension: dimension, x: x, strategy: strategy, nanosecondsPerEvent: nanoseconds, bytes: nil,
                   falseDrops: nil, missedDuplicates: nil, events: 1_000)
    }

    @Test func ratiosComeFromTheSameRunsPoints() {
        let text = LiveSetSweepText.render([
            Self.point("ring-buffer", 8, 10), Self.point("hash-deque", 8, 20), Self.point("direct-mapped-window", 8, 16),
            Self.point("stdlib-dictionary-window", 8, 64), Self.point("hash-deque", 64, 30),
        ])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("window-live-set-50pct-repeats,8,2.000,1.250,3.200,4.000"))
        #expect(lines.contains("window-live-set-50pct-repeats,64,3.000,,,"))
        #expect(lines.contains("dimension,x,hash-deque/ring-buffer@8,hash-deque/direct-mapped-window,stdlib/hash-deque,stdlib/direct-mapped-window"))
    }
}
