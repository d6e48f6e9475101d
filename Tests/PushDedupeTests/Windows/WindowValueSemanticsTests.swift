import PushDedupe
import Testing

/// A window is a value: a copy taken mid-stream answers as if it had been built and fed the same
/// prefix, however the original goes on (`hash-deque` and `fifo-set` share one copy-on-write
/// storage object between copies until one of them writes).
@Suite struct WindowValueSemanticsTests {
    private static func feed<W: FingerprintWindow>(_ window: inout W, seed: UInt64, count: Int, from start: Int64) -> [Bool] {
        var random = SplitMix64(seed: seed)
        var time = start
        return (0..<count).map { _ in
            time += Int64(random.next() % 40) * 1_000_000
            return window.admit(RouteFingerprint(route: "item:\(random.next() % 24)"), at: Timestamp(nanoseconds: time))
        }
    }

    /// The same generic body for every kind, opened from the existential once per test.
    private static func check<W: FingerprintWindow>(_: W.Type, seed: UInt64, prefix: Int) throws {
        let configuration = WindowConfiguration(window: .milliseconds(500), capacity: 4)
        var original = try W(configuration: configuration)
        _ = feed(&original, seed: seed, count: prefix, from: 0)
        var copy = original
        // The original goes on with other traffic, growing past its capacity.
        _ = feed(&original, seed: seed &+ 1_000, count: 200, from: 1_000_000_000_000)
        // The copy continues as a fresh window fed the same prefix does.
        var fresh = try W(configuration: configuration)
        _ = feed(&fresh, seed: seed, count: prefix, from: 0)
        let later = Int64(prefix) * 40_000_000
        let copied = feed(&copy, seed: seed &+ 7, count: 100, from: later)
        let expected = feed(&fresh, seed: seed &+ 7, count: 100, from: later)
        #expect(copied == expected, "\(W.strategyID), seed \(seed), prefix \(prefix)")
        #expect(copy.count == fresh.count)
    }

    @Test(arguments: WindowKind.allCases)
    func aCopyIsIndependentOfTheOriginal(_ kind: WindowKind) throws {
        for seed in UInt64(1)...20 {
            for prefix in [0, 1, 3, 10, 60] {
                try Self.check(kind.type, seed: seed, prefix: prefix)
            }
        }
    }
}
