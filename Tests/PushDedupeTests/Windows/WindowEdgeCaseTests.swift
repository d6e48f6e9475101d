import PushDedupe
import Testing

private func fingerprint(_ n: Int) -> RouteFingerprint { RouteFingerprint(route: "item:\(n)") }

/// Replays `(route number, milliseconds)` admits on a fresh window and returns its answers.
private func answers<W: FingerprintWindow>(
    _ type: W.Type, window: Duration = .milliseconds(500), capacity: Int = 64, _ admits: [(Int, Double)]
) throws -> [Bool] {
    var subject = try W(configuration: WindowConfiguration(window: window, capacity: capacity))
    return admits.map { subject.admit(fingerprint($0.0), at: .milliseconds($0.1)) }
}

@Suite struct WindowEdgeCaseTests {
    @Test(arguments: WindowKind.allCases)
    func negativeWindowThrows(_ kind: WindowKind) {
        #expect(throws: ConfigurationError.self) {
            _ = try kind.type.init(configuration: WindowConfiguration(window: .milliseconds(-1), capacity: 8))
        }
        do {
            _ = try kind.type.init(configuration: WindowConfiguration(window: .nanoseconds(-1), capacity: 8))
            Issue.record("\(kind.type.strategyID) accepted a negative window")
        } catch {
            #expect(error.strategy == kind.type.strategyID)
            #expect(error.parameter == "window")
        }
    }

    @Test(arguments: WindowKind.allCases)
    func negativeOrHugeCapacityThrows(_ kind: WindowKind) {
        for capacity in [-1, Int.min, (1 << 30) + 1, Int.max] {
            do {
                _ = try kind.type.init(configuration: WindowConfiguration(window: .milliseconds(500), capacity: capacity))
                Issue.record("\(kind.type.strategyID) accepted capacity \(capacity)")
            } catch {
                #expect(error.strategy == kind.type.strategyID)
                #expect(error.parameter == "capacity")
                #expect(error.description.contains("\(capacity)"))
            }
        }
    }

    @Test(arguments: WindowKind.allCases)
    func windowZeroSuppressesOnlyTheSameInstant(_ kind: WindowKind) throws {
        var window = try kind.type.init(configuration: WindowConfiguration(window: .zero, capacity: 8))
        let a = fingerprint(1)
        #expect(admit(&window, a, at: Timestamp(nanoseconds: 1_000)))
        #expect(!admit(&window, a, at: Timestamp(nanoseconds: 1_000)))
        #expect(admit(&window, a, at: Timestamp(nanoseconds: 1_001)))
        #expect(!admit(&window, a, at: Timestamp(nanoseconds: 1_001)))
        #expect(admit(&window, fingerprint(2), at: Timestamp(nanoseconds: 1_001)))
        #expect(window.evictions == 0)
    }

    /// Direct-mapped is left out: 50 routes in its table may collide, which its own tests cover.
    @Test(arguments: WindowKind.unboundedExact + [.ringBuffer, .epochSets])
    func equalTimestampsSuppressRepeatsAndAdmitDistinctRoutes(_ kind: WindowKind) throws {
        var window = try kind.type.init(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 1_024))
        let now = Timestamp.milliseconds(7)
        for n in 0..<50 { #expect(admit(&window, fingerprint(n), at: now), "\(kind.type.strategyID) route \(n)") }
        for n in 0..<50 { #expect(!admit(&window, fingerprint(n), at: now), "\(kind.type.strategyID) route \(n)") }
        #expect(window.count == 50)
        #expect(window.evictions == 0, "\(kind.type.strategyID): 50 routes fit \(window.footprint) bytes")
    }

    /// A time earlier than the latest is the latest: B "at 500 ms" is recorded at 1000 ms, so it
    /// suppresses up to and including 1500 ms.
    @Test(arguments: WindowKind.unboundedExact + [.ringBuffer])
    func timeGoingBackwardsIsClampedToTheLatest(_ kind: WindowKind) throws {
        let result = try answers(kind.type, [
            (1, 1_000), (2, 500), (1, 0), (1, 1_400), (2, 1_500), (2, 1_500.5), (1, 1_500.5),
        ])
        #expect(result == [true, true, false, false, false, true, true], "\(kind.type.strategyID)")
    }

    @Test(arguments: [WindowKind.epochSets, .directMapped])
    func timeGoingBackwardsNeverTrapsInTheApproximateWindows(_ kind: WindowKind) throws {
        var window = try kind.type.init(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 64))
        for nanoseconds in [Int64.max, 0, .min, .max - 1, 1, .min + 1] {
            _ = window.admit(fingerprint(1), at: Timestamp(nanoseconds: nanoseconds))
        }
        // Every later call is clamped to Int64.max, where route 1 was recorded first.
        #expect(!admit(&window, fingerprint(1), at: Timestamp(nanoseconds: 0)))
        #expect(admit(&window, fingerprint(2), at: Timestamp(nanoseconds: 0)))
    }

    @Test(arguments: WindowKind.unboundedExact + [.ringBuffer])
    func extremeTimestampsNeverTrap(_ kind: WindowKind) throws {
        // The window saturates to Int64.max ns, so an entry at Int64.min is still inside at -1 ns.
        var window = try kind.type.init(configuration: WindowConfiguration(window: .seconds(Int64.max), capacity: 4))
        #expect(admit(&window, fingerprint(1), at: Timestamp(nanoseconds: .min)))
        #expect(!admit(&window, fingerprint(1), at: Timestamp(nanoseconds: -1)), "\(kind.type.strategyID)")
        #expect(admit(&window, fingerprint(2), at: Timestamp(nanoseconds: .max)))
        #expect(!admit(&window, fingerprint(2), at: Timestamp(nanoseconds: 0)), "\(kind.type.strategyID)")
        #expect(window.window == .seconds(Int64.max))
    }

    @Test(arguments: WindowKind.unboundedExact)
    func capacityIsOnlyAReservationForUnboundedWindows(_ kind: WindowKind) throws {
        for capacity in [0, 1] {
            var window = try kind.type.init(configuration: WindowConfiguration(window: .milliseconds(500), capacity: capacity))
            for n in 0..<10 { #expect(admit(&window, fingerprint(n), at: .milliseconds(Double(n)))) }
            for n in 0..<10 { #expect(!admit(&window, fingerprint(n), at: .milliseconds(100))) }
            #expect(window.count == 10)
            #expect(window.evictions == 0)
            #expect(window.footprint > 0)
        }
    }

    @Test(arguments: [WindowKind.ringBuffer, .directMapped])
    func capacityZeroRemembersNothingAndCountsEachAdmission(_ kind: WindowKind) throws {
        var window = try kind.type.init(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 0))
        for step in 0..<5 { #expect(admit(&window, fingerprint(1), at: .milliseconds(Double(step)))) }
        #expect(window.count == 0)
        #expect(window.evictions == 5)
        #expect(window.footprint == 0)
    }

    @Test func ringBufferOfOneKeepsOnlyTheNewest() throws {
        var window = try RingBufferWindow(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 1))
        #expect(admit(&window, fingerprint(1), at: .milliseconds(0)))
        #expect(!admit(&window, fingerprint(1), at: .milliseconds(1)))
        #expect(admit(&window, fingerprint(2), at: .milliseconds(2)))
        #expect(window.evictions == 1)
        #expect(admit(&window, fingerprint(1), at: .milliseconds(3)), "route 1 was evicted: a missed duplicate")
        #expect(window.evictions == 2)
        // Route 1 expires at 503.5 ms; replacing an expired entry is not an eviction.
        #expect(admit(&window, fingerprint(2), at: .milliseconds(503.5)))
        #expect(window.evictions == 2)
        #expect(window.count == 1)
    }

    @Test func directMappedOfOneSlotOverwritesOnEveryNewRoute() throws {
        var window = try DirectMappedWindow(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 1))
        #expect(window.capacity == 1)
        #expect(admit(&window, fingerprint(1), at: .milliseconds(0)))
        #expect(!admit(&window, fingerprint(1), at: .milliseconds(500)))
        #expect(admit(&window, fingerprint(2), at: .milliseconds(500)))
        #expect(window.evictions == 1)
        #expect(admit(&window, fingerprint(1), at: .milliseconds(500)), "overwritten: a missed duplicate")
        #expect(window.evictions == 2)
        #expect(admit(&window, fingerprint(2), at: .milliseconds(1_001)), "the slot had expired: no eviction")
        #expect(window.evictions == 2)
        #expect(window.count == 1)
    }

    @Test func ringBufferBurstLargerThanCapacityCountsEveryEviction() throws {
        var window = try RingBufferWindow(configuration: WindowConfiguration(window: .milliseconds(500), capacity: 8))
        for n in 0..<20 { #expect(admit(&window, fingerprint(n), at: .milliseconds(10))) }
        #expect(window.count == 8)
        #expect(window.evictions == 12)
        // The eight newest are still held; the twelve oldest are gone.
        for n in 12..<20 { #expect(!admit(&window, fingerprint(n), at: .milliseconds(11))) }
        #expect(admit(&window, fingerprint(0), at: .milliseconds(11)))
        #expect(window.evictions == 13)
        #expect(!admit(&window, fingerprint(0), at: .milliseconds(12)))
        #expect(admit(&window, fingerprint(12), at: .milliseconds(12)), "route 12 was the oldest, evicted by route 0")
    }

    /// A single pass of 10⁶ distinct fingerprints all live at once: the index and queue double
    /// about twenty times from capacity 1, and every fingerprint stays remembered.
    @Test func hashDequeHoldsAMillionLiveFingerprints() throws {
        var window = try HashDequeWindow(configuration: WindowConfiguration(window: .seconds(3_600), capacity: 1))
        let total = 1_000_000
        var admitted = 0
        for n in 0..<total {
            let digest = DeterministicHashing.mix64(UInt64(n))
            if window.admit(RouteFingerprint(rawValue: digest), at: Timestamp(nanoseconds: Int64(n))) { admitted += 1 }
        }
        #expect(admitted == total)
        #expect(window.count == total)
        #expect(window.footprint == (1 << 20) * 24)
        for n in stride(from: 0, to: total, by: 997) {
            let digest = DeterministicHashing.mix64(UInt64(n))
            #expect(!admit(&window, RouteFingerprint(rawValue: digest), at: Timestamp(nanoseconds: Int64(total))))
        }
        #expect(admit(&window, RouteFingerprint(rawValue: DeterministicHashing.mix64(UInt64(total))), at: .milliseconds(2)))
        // Just past the hour, only the fingerprints admitted at or after 1 ns survive.
        #expect(admit(&window, RouteFingerprint(rawValue: DeterministicHashing.mix64(0)), at: Timestamp(nanoseconds: 3_600_000_000_001)))
        #expect(window.count == total + 1, "one expired, two admitted")
    }

    /// 10⁶ distinct fingerprints with time advancing: the live set stays at 65 and the storage,
    /// sized once, never grows.
    @Test func hashDequeStreamsAMillionFingerprintsInBoundedMemory() throws {
        var window = try HashDequeWindow(configuration: WindowConfiguration(window: .nanoseconds(64), capacity: 128))
        let footprint = window.footprint
        // Structured digests (n·2³²) that would all share one bucket if the low bits indexed.
        func route(_ n: Int) -> RouteFingerprint { RouteFingerprint(rawValue: UInt64(n) << 32) }
        var wrongAnswers = 0
        for n in 0..<1_000_000 {
            let now = Timestamp(nanoseconds: Int64(n))
            if !window.admit(route(n), at: now) { wrongAnswers += 1 }
            if n % 1_000 == 999 {
                if window.admit(route(n), at: now) { wrongAnswers += 1 }
                if window.admit(route(n - 64), at: now) { wrongAnswers += 1 }
                if !window.admit(route(n - 65), at: now) { wrongAnswers += 1 }
            }
        }
        #expect(wrongAnswers == 0)
        // 65 live routes (ages 0...64 ns) plus route 999,934, re-admitted at the last step.
        #expect(window.count == 66)
        #expect(window.footprint == footprint)
    }
}
