@_spi(Bench) import PushDedupe
import Testing

/// A registered consumed set, with the configurations its snapshot is checked at: capacities
/// for a set that holds ids, filter sizes for a probabilistic one. `allCases` reads
/// `StrategyRegistry`; `StrategyRegistryTests` fails naming a registered set that cannot
/// snapshot.
struct SnapshotKind: Sendable, CustomStringConvertible {
    let type: any SnapshottableConsumedSet.Type

    static var allCases: [SnapshotKind] {
        StrategyRegistryTests.consumedSetTypes.compactMap { ($0 as? any SnapshottableConsumedSet.Type).map(SnapshotKind.init) }
    }

    var description: String { type.strategyID }

    /// Runs `body` with the type and its configurations, so generic code sees the type concretely.
    func visit<R>(_ body: some SnapshotKindVisitor<R>) -> R {
        type.visitSnapshotKind(body)
    }
}

extension SnapshottableConsumedSet {
    /// `body` with `Self` concrete and the configurations a set of its kind is checked at.
    static func visitSnapshotKind<R>(_ body: some SnapshotKindVisitor<R>) -> R {
        if Self.self is any ProbabilisticConsumedSet.Type {
            return body.visit(Self.self, [4, 16, 64].map {
                ConsumedSetConfiguration(capacity: $0, falsePositiveRate: 0.05, retention: .milliseconds(25), expectedRatePerSecond: 400)
            })
        }
        return body.visit(Self.self, [0, 1, 3, 16].map { ConsumedSetConfiguration(capacity: $0, retention: .milliseconds(25)) })
    }
}

protocol SnapshotKindVisitor<Result> {
    associatedtype Result
    func visit<S: SnapshottableConsumedSet>(_ type: S.Type, _ configurations: [ConsumedSetConfiguration]) -> Result
}

/// Seeded random sequences, each snapshotted at a random step, restored, and continued beside the
/// uninterrupted original: every later answer, `count` and `evictions` must agree, and the
/// restored set must snapshot to the same bytes. Returns the first disagreement.
struct RoundTripChecker: SnapshotKindVisitor {
    var sequences = 300

    func visit<S: SnapshottableConsumedSet>(_ type: S.Type, _ configurations: [ConsumedSetConfiguration]) -> String? {
        var random = SplitMix64(seed: 0x5a4d_5e7)
        for sequence in 0..<sequences {
            let configuration = configurations[sequence % configurations.count]
            let operations = randomConsumeOperations(
                count: Int.random(in: 1...200, using: &random), universe: Int.random(in: 1...60, using: &random),
                meanStepNanoseconds: 5_000_000, using: &random)
            let cut = Int.random(in: 0...operations.count, using: &random)
            guard var original = try? S(configuration: configuration) else { return "\(S.strategyID): init failed" }
            for operation in operations[..<cut] { _ = original.consume(operation.id, at: operation.time) }
            let bytes = original.snapshot()
            var restored: S
            do {
                restored = try S(snapshot: bytes, configuration: configuration)
            } catch {
                return "\(S.strategyID) sequence \(sequence): restore threw \(error)"
            }
            let context = "\(S.strategyID) \(configuration) sequence \(sequence) cut \(cut)"
            if restored.snapshot() != bytes { return "\(context): the restored set snapshots to other bytes" }
            for (step, operation) in operations[cut...].enumerated() {
                let expected = original.consume(operation.id, at: operation.time)
                let actual = restored.consume(operation.id, at: operation.time)
                if expected != actual { return "\(context) step \(step): restored answered \(actual), original \(expected)" }
                if restored.count != original.count || restored.evictions != original.evictions {
                    return "\(context) step \(step): count/evictions \(restored.count)/\(restored.evictions), "
                        + "original \(original.count)/\(original.evictions)"
                }
            }
        }
        return nil
    }
}

/// A small snapshot of each set after a few consumes, every one of its proper prefixes, and every
/// single-byte corruption of it: each must throw, none may trap or restore.
struct DamageChecker: SnapshotKindVisitor {
    func visit<S: SnapshottableConsumedSet>(_ type: S.Type, _ configurations: [ConsumedSetConfiguration]) -> String? {
        let configuration = configurations[1]
        guard var set = try? S(configuration: configuration) else { return "\(S.strategyID): init failed" }
        for n in 0..<5 { _ = set.consume(testEnvelope(n), at: testInstant(Int64(n))) }
        let bytes = set.snapshot()
        for length in 0..<bytes.count {
            do {
                _ = try S(snapshot: Array(bytes[..<length]), configuration: configuration)
                return "\(S.strategyID): a snapshot cut to \(length) of \(bytes.count) bytes restored"
            } catch {
                if error.kind != .truncated && error.kind != .checksumMismatch && error.kind != .malformed {
                    return "\(S.strategyID): cut to \(length) bytes threw \(error.kind), not truncated"
                }
            }
        }
        for position in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xff] {
                var damaged = bytes
                damaged[position] ^= flip
                if (try? S(snapshot: damaged, configuration: configuration)) != nil {
                    return "\(S.strategyID): byte \(position) ^ \(flip) restored"
                }
            }
        }
        return nil
    }
}

@Suite struct SnapshotTests {
    @Test(arguments: SnapshotKind.allCases)
    func restoredSetsAnswerLikeTheUninterruptedOriginal(kind: SnapshotKind) {
        if let failure = kind.visit(RoundTripChecker()) { Issue.record(Comment(rawValue: failure)) }
    }

    @Test(arguments: SnapshotKind.allCases)
    func truncatedAndCorruptSnapshotsThrow(kind: SnapshotKind) {
        if let failure = kind.visit(DamageChecker()) { Issue.record(Comment(rawValue: failure)) }
    }

    @Test func aSnapshotOfAnotherStrategyIsRefused() throws {
        var fifo = try FIFOSet(configuration: .init(capacity: 8))
        _ = fifo.consume(testEnvelope(1), at: testInstant(0))
        #expect { try BoundedLRU(snapshot: fifo.snapshot(), configuration: .init(capacity: 8)) } throws: {
            ($0 as? SnapshotError)?.kind == .wrongStrategy
        }
        #expect { try BoundedLRU(snapshot: Array("not a snapshot at all".utf8), configuration: .init()) } throws: {
            ($0 as? SnapshotError)?.kind == .notASnapshot
        }
    }

    @Test func aFilterRefusesASnapshotOfAnotherSize() throws {
        let bloom = try BloomFilter(configuration: .init(capacity: 1_000))
        #expect { try BloomFilter(snapshot: bloom.snapshot(), configuration: .init(capacity: 2_000)) } throws: {
            ($0 as? SnapshotError)?.kind == .incompatibleConfiguration
        }
        let rotating = try RotatingSets(configuration: .init(retention: .seconds(1)))
        #expect { try RotatingSets(snapshot: rotating.snapshot(), configuration: .init(retention: .seconds(2))) } throws: {
            ($0 as? SnapshotError)?.kind == .incompatibleConfiguration
        }
    }

    /// Exact sets replay their ids, so a smaller capacity keeps the newest and counts the rest as
    /// evictions.
    @Test func anExactSetRestoresIntoASmallerCapacity() throws {
        var fifo = try FIFOSet(configuration: .init(capacity: 8))
        let filled = fifo.acceptedCount(0..<8, at: 0)
        var smaller = try FIFOSet(snapshot: fifo.snapshot(), configuration: .init(capacity: 3))
        #expect(filled == 8 && smaller.count == 3 && smaller.evictions == 5)
        let answers = smaller.consume([5, 6, 7, 4], at: 1)
        #expect(answers == [false, false, false, true])
    }

    @Test func anEmptySetRoundTripsToAnEmptySet() throws {
        let map = try IDTimeMap(configuration: .init(retention: .seconds(5)))
        var restored = try IDTimeMap(snapshot: map.snapshot(), configuration: .init(retention: .seconds(5)))
        let accepted = restored.consume(testEnvelope(1), at: testInstant(0))
        #expect(restored.count == 1 && accepted)
    }
}

/// Fills a set of each strategy with 20 distinct ids, then migrates its snapshot into a
/// `fifo-set`: a set that holds ids must give back every id it retains, in its stored order; a
/// filter must be refused in both directions, with both strategies named.
struct MigrationChecker: SnapshotKindVisitor {
    func visit<S: SnapshottableConsumedSet>(_ type: S.Type, _ configurations: [ConsumedSetConfiguration]) -> String? {
        let configuration = ConsumedSetConfiguration(capacity: 32, falsePositiveRate: 0.01, retention: .seconds(60), expectedRatePerSecond: 10)
        guard var source = try? S(configuration: configuration) else { return "\(S.strategyID): init failed" }
        for n in 0..<20 { _ = source.consume(testEnvelope(n), at: testInstant(Int64(n))) }
        let target = ConsumedSetConfiguration(capacity: 64)
        if S.self is any ProbabilisticConsumedSet.Type {
            do {
                _ = try FIFOSet(migrating: source.snapshot(), configuration: target)
                return "\(S.strategyID): a filter migrated into fifo-set"
            } catch {
                guard error == .incompatibleStrategy(stored: S.strategyID, requested: FIFOSet.strategyID) else {
                    return "\(S.strategyID) into fifo-set threw \(error)"
                }
            }
            return nil
        }
        let retained = (0..<20).filter { source.contains(testEnvelope($0)) }
        let expected: [Int]
        switch S.strategyID {
        case UnboundedSet.strategyID:
            expected = retained.sorted { (testEnvelope($0).high, testEnvelope($0).low) < (testEnvelope($1).high, testEnvelope($1).low) }
        case DirectMappedSet.strategyID:
            expected = []   // slot order: checked as a set below
        default:
            expected = retained
        }
        let migrated: FIFOSet
        do {
            migrated = try FIFOSet(migrating: source.snapshot(), configuration: target)
        } catch {
            return "\(S.strategyID) into fifo-set threw \(error)"
        }
        if migrated.count != retained.count || !retained.allSatisfy({ migrated.contains(testEnvelope($0)) }) {
            return "\(S.strategyID): migrated \(migrated.count) ids, the source retains \(retained.count)"
        }
        if S.strategyID != DirectMappedSet.strategyID {
            guard var rebuilt = try? FIFOSet(configuration: target) else { return "fifo-set: init failed" }
            for n in expected { _ = rebuilt.consume(testEnvelope(n), at: .zero) }
            if migrated.snapshot() != rebuilt.snapshot() { return "\(S.strategyID): the ids migrated out of their stored order" }
        }
        do {
            _ = try BloomFilter(migrating: source.snapshot(), configuration: target)
            return "\(S.strategyID): migrated into a filter"
        } catch {
            if error != .incompatibleStrategy(stored: S.strategyID, requested: BloomFilter.strategyID) {
                return "\(S.strategyID) into bloom threw \(error)"
            }
        }
        return nil
    }
}

@Suite struct SnapshotMigrationTests {
    @Test(arguments: SnapshotKind.allCases)
    func setsThatHoldIdsMigrateEveryIdInOrderAndFiltersAreRefused(kind: SnapshotKind) {
        if let failure = kind.visit(MigrationChecker()) { Issue.record(Comment(rawValue: failure)) }
    }

    /// Every pair of id-holding sets migrates, not only into `fifo-set`.
    @Test func everyExactPairMigrates() throws {
        let configuration = ConsumedSetConfiguration(capacity: 16, retention: .seconds(60))
        var lru = try BoundedLRU(configuration: configuration)
        for n in 0..<10 { _ = lru.consume(testEnvelope(n), at: .zero) }
        _ = lru.consume(testEnvelope(0), at: .zero)   // 0 becomes the most recently used
        let unbounded = try UnboundedSet(migrating: lru.snapshot(), configuration: configuration)
        let rotating = try RotatingSets(migrating: unbounded.snapshot(), configuration: configuration)
        let recent = try RecentIDs(migrating: rotating.snapshot(), configuration: .init(capacity: 3))
        #expect(unbounded.count == 10 && rotating.count == 10)
        #expect((0..<10).allSatisfy { rotating.contains(testEnvelope($0)) })
        #expect(recent.count == 3, "a smaller target keeps the newest of the stored order")
        var smaller = try FIFOSet(migrating: lru.snapshot(), configuration: .init(capacity: 2))
        #expect(smaller.consume([9, 0, 8], at: 0) == [false, false, true], "LRU order: 9, then 0, are the newest")
    }

    /// Migrating a snapshot of the same strategy is a plain restore, counters included.
    @Test func theSameStrategyIsRestoredNotMigrated() throws {
        var fifo = try FIFOSet(configuration: .init(capacity: 4))
        for n in 0..<6 { _ = fifo.consume(testEnvelope(n), at: .zero) }
        let migrated = try FIFOSet(migrating: fifo.snapshot(), configuration: .init(capacity: 4))
        #expect(migrated.evictions == 2 && migrated.snapshot() == fifo.snapshot())
    }

    /// Another strategy without migration names both; corrupt bytes stay corrupt.
    @Test func errorsNameTheStrategiesAndTheVersion() throws {
        var fifo = try FIFOSet(configuration: .init(capacity: 8))
        _ = fifo.consume(testEnvelope(1), at: .zero)
        do {
            _ = try BoundedLRU(snapshot: fifo.snapshot(), configuration: .init(capacity: 8))
            Issue.record("restored another strategy")
        } catch {
            #expect(error.kind == .wrongStrategy && error.storedStrategy == "fifo-set" && error.requestedStrategy == "bounded-lru")
        }
        for (version, age) in [(UInt8(0), "older"), (2, "newer")] {
            var bytes = fifo.snapshot()
            bytes[4] = version
            bytes.replaceSubrange((bytes.count - 8)..., with: littleEndian(DeterministicHashing.fnv1a64(bytes.dropLast(8))))
            do {
                _ = try FIFOSet(migrating: bytes, configuration: .init(capacity: 8))
                Issue.record("restored format version \(version)")
            } catch {
                #expect(error.kind == .unsupportedVersion && error.reason.contains(age), "\(error)")
            }
        }
        var corrupt = fifo.snapshot()
        corrupt[corrupt.count / 2] ^= 0x40
        #expect(throws: SnapshotError.self) { try FIFOSet(migrating: corrupt, configuration: .init(capacity: 8)) }
    }
}

/// The 8 bytes of `value`, least significant first: a snapshot's checksum field.
func littleEndian(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
