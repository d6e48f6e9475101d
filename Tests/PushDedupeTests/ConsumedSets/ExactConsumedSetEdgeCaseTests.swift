import PushDedupe
import Testing

@Suite struct ExactConsumedSetEdgeCaseTests {
    @Test(arguments: ExactConsumedSetKind.allCases)
    func capacityZero(kind: ExactConsumedSetKind) throws {
        var set = try kind.make(.init(capacity: 0))
        let answers = set.consume([1], at: 0) + set.consume([1], at: 1) + set.consume([2], at: 2)
        if kind.isCapacityBounded {
            // Retains nothing; every accepted id is dropped at once and counted.
            #expect(answers == [true, true, true])
            #expect(!set.contains(testEnvelope(1)))
            #expect(set.count == 0)
            #expect(set.evictions == 3)
        } else {
            // Capacity is only a reservation: the set still remembers.
            #expect(answers == [true, false, true])
            #expect(set.contains(testEnvelope(1)))
            #expect(set.count == 2)
            #expect(set.evictions == 0)
        }
    }

    @Test(arguments: [ExactConsumedSetKind.leastRecentlyUsed, .firstInFirstOut])
    func capacityOneHoldsOnlyTheLatestId(kind: ExactConsumedSetKind) throws {
        var set = try kind.make(.init(capacity: 1))
        #expect(set.consume([1, 1, 2], at: 0) == [true, false, true])
        #expect(set.evictions == 1)
        #expect(set.consume([1], at: 0) == [true])
        #expect(set.count == 1 && set.evictions == 2)
        #expect(set.contains(testEnvelope(1)) && !set.contains(testEnvelope(2)))
    }

    @Test func directMappedCapacityOneOverwritesItsOnlySlot() throws {
        var set = try DirectMappedSet(configuration: .init(capacity: 1))
        #expect(set.consume([1, 1, 2], at: 0) == [true, false, true])
        #expect(set.count == 1 && set.evictions == 1)
        #expect(!set.contains(testEnvelope(1)))
    }

    /// Many consumes at one instant: the time-bounded set never rotates, the others ignore time.
    @Test(arguments: [ExactConsumedSetKind.unbounded, .leastRecentlyUsed, .firstInFirstOut, .rotating])
    func equalTimestamps(kind: ExactConsumedSetKind) throws {
        var set = try kind.make(.init(capacity: 1_024, retention: .nanoseconds(1)))
        #expect(set.acceptedCount(0..<500, at: 7) == 500)
        #expect(set.acceptedCount(0..<500, at: 7) == 0)
        #expect(set.count == 500)
    }

    /// At one instant a direct-mapped table still never false-drops; each accepted id either
    /// fills an empty slot or counts the id it overwrote.
    @Test func equalTimestampsInDirectMappedSet() throws {
        var set = try DirectMappedSet(configuration: .init(capacity: 1_024))
        #expect(set.acceptedCount(0..<500, at: 7) == 500)
        #expect(set.count + set.evictions == 500)
        #expect(set.evictions > 0)  // 500 ids over 1,024 slots collide ~100 times
    }

    /// A `now` earlier than the latest is the latest: nothing traps, ids recorded then are aged
    /// from the latest time, and the horizon does not move back.
    @Test func timeGoingBackwardsIsClampedByRotatingSets() throws {
        var set = try RotatingSets(configuration: .init(capacity: 4, retention: .milliseconds(100)))
        #expect(set.consume([1], at: 1_000) == [true])
        #expect(set.consume([2], at: 0) == [true])  // treated as t = 1,000 ms
        #expect(set.consume([2], at: 1_100) == [false])  // 100 ms old: still inside the retention
        #expect(set.consume([1], at: -5_000) == [false])
        #expect(set.consume([2], at: 1_300) == [true])  // 300 ms ≥ 2 × retention: forgotten
        #expect(set.evictions == 0)
    }

    @Test(arguments: [ExactConsumedSetKind.unbounded, .leastRecentlyUsed, .firstInFirstOut, .directMapped])
    func timeGoingBackwardsChangesNothingForCountBoundedSets(kind: ExactConsumedSetKind) throws {
        var set = try kind.make(.init(capacity: 64))
        for (n, time) in [(1, 500), (2, -1_000), (3, 0), (1, -2_000), (2, 500)] {
            _ = set.consume(testEnvelope(n), at: testInstant(Int64(time)))
        }
        #expect(set.contains(testEnvelope(1)) && set.contains(testEnvelope(2)) && set.contains(testEnvelope(3)))
        #expect(set.count == 3)
    }

    /// 100 new ids through 64 slots: the first 36 are evicted in order, the last 64 retained.
    @Test func burstLargerThanCapacityEvictsTheOldestFromFIFOSet() throws {
        var set = try FIFOSet(configuration: .init(capacity: 64))
        #expect(set.acceptedCount(0..<100, at: 0) == 100)
        #expect(set.count == 64 && set.evictions == 36)
        #expect((0..<36).allSatisfy { !set.contains(testEnvelope($0)) })
        #expect((36..<100).allSatisfy { set.contains(testEnvelope($0)) })
    }

    /// The same burst, but id 0 is replayed mid-burst: the LRU keeps it, the FIFO set does not.
    @Test func burstLargerThanCapacityKeepsARefreshedIdOnlyInBoundedLRU() throws {
        var lru = try BoundedLRU(configuration: .init(capacity: 64))
        var fifo = try FIFOSet(configuration: .init(capacity: 64))
        #expect(lru.acceptedCount(0..<51, at: 0) == 51 && fifo.acceptedCount(0..<51, at: 0) == 51)
        #expect(lru.consume([0], at: 0) == [false] && fifo.consume([0], at: 0) == [false])
        #expect(lru.acceptedCount(51..<100, at: 0) == 49 && fifo.acceptedCount(51..<100, at: 0) == 49)
        #expect(lru.contains(testEnvelope(0)) && !lru.contains(testEnvelope(1)))
        #expect(!fifo.contains(testEnvelope(0)))
        #expect(lru.evictions == 36 && fifo.evictions == 36)
    }

    /// Exact time-bounded sets grow past their reservation rather than forget within the horizon.
    @Test func burstLargerThanReservationIsAllRememberedByRotatingSets() throws {
        var set = try RotatingSets(configuration: .init(capacity: 4, retention: .seconds(1)))
        #expect(set.acceptedCount(0..<1_000, at: 0) == 1_000)
        #expect(set.acceptedCount(0..<1_000, at: 1_000) == 0)
        #expect(set.count == 1_000 && set.evictions == 0)
    }

    /// 10⁶ new ids, each fourth step replaying the id 1,000 back (inside the capacity), then the
    /// id 5,000 back (outside it). Exact in both directions at every step.
    @Test(arguments: [ExactConsumedSetKind.leastRecentlyUsed, .firstInFirstOut])
    func aMillionIds(kind: ExactConsumedSetKind) throws {
        var set = try kind.make(.init(capacity: 4_096))
        var wrong = 0
        for n in 0..<1_000_000 {
            if !set.consume(testEnvelope(n), at: testInstant(Int64(n))) { wrong += 1 }
            if n % 4 == 0 && n >= 5_000 {
                if set.consume(testEnvelope(n - 1_000), at: testInstant(Int64(n))) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(set.count == 4_096)
        #expect(set.evictions == 1_000_000 - 4_096)
        #expect(set.consume([1_000_000 - 5_000], at: 1_000_000) == [true])
    }

    @Test(arguments: ExactConsumedSetKind.allCases)
    func negativeCapacityThrows(kind: ExactConsumedSetKind) {
        let error = #expect(throws: ConfigurationError.self) { try kind.make(.init(capacity: -1)) }
        #expect(error?.parameter == "capacity")
        #expect(error?.description.contains("-1") == true)
    }

    @Test(arguments: [ExactConsumedSetKind.leastRecentlyUsed, .firstInFirstOut, .rotating, .directMapped])
    func capacityAboveTheIndexLimitThrows(kind: ExactConsumedSetKind) {
        let error = #expect(throws: ConfigurationError.self) { try kind.make(.init(capacity: (1 << 30) + 1)) }
        #expect(error?.parameter == "capacity")
    }

    @Test(arguments: [Duration.zero, .nanoseconds(-1), .seconds(-30)])
    func nonPositiveRetentionThrows(retention: Duration) {
        let error = #expect(throws: ConfigurationError.self) {
            try RotatingSets(configuration: .init(retention: retention))
        }
        #expect(error?.strategy == "rotating-sets")
        #expect(error?.parameter == "retention")
    }

    /// Retention is read only by the time-bounded set.
    @Test func retentionIsIgnoredByCountBoundedSets() throws {
        _ = try FIFOSet(configuration: .init(capacity: 8, retention: .zero))
        _ = try BoundedLRU(configuration: .init(capacity: 8, retention: .zero))
        _ = try DirectMappedSet(configuration: .init(capacity: 8, retention: .zero))
        _ = try UnboundedSet(configuration: .init(capacity: 8, retention: .zero))
    }

    /// Sets are values: a copy keeps its own contents when the original goes on, even though
    /// the storage is shared until the first write.
    @Test(arguments: ExactConsumedSetKind.allCases)
    func copiesAreIndependent(kind: ExactConsumedSetKind) throws {
        var original = try kind.make(.init(capacity: 16))
        _ = original.acceptedCount(0..<12, at: 0)
        let copy = original
        let before = (0..<40).map { copy.contains(testEnvelope($0)) }
        let countBefore = copy.count
        _ = original.acceptedCount(12..<40, at: 1)
        #expect((0..<40).map { copy.contains(testEnvelope($0)) } == before)
        #expect(copy.count == countBefore)
        #expect(original.contains(testEnvelope(39)))
    }
}
