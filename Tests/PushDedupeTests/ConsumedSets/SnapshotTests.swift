import PushDedupe
import Testing

/// Every consumed set, with the configurations its snapshot is checked at.
enum SnapshotKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case unbounded, leastRecentlyUsed, firstInFirstOut, rotating, directMapped
    case lastID, recentIDs, idTimeMap
    case bloom, agingBloom, cuckoo, stableBloom

    var description: String { rawValue }

    /// Runs `body` with the type and its configurations, so generic code sees the type concretely.
    func visit<R>(_ body: some SnapshotKindVisitor<R>) -> R {
        let capacities = [0, 1, 3, 16].map { ConsumedSetConfiguration(capacity: $0, retention: .milliseconds(25)) }
        let filters = [4, 16, 64].map {
            ConsumedSetConfiguration(capacity: $0, falsePositiveRate: 0.05, retention: .milliseconds(25), expectedRatePerSecond: 400)
        }
        switch self {
        case .unbounded: return body.visit(UnboundedSet.self, capacities)
        case .leastRecentlyUsed: return body.visit(BoundedLRU.self, capacities)
        case .firstInFirstOut: return body.visit(FIFOSet.self, capacities)
        case .rotating: return body.visit(RotatingSets.self, capacities)
        case .directMapped: return body.visit(DirectMappedSet.self, capacities)
        case .lastID: return body.visit(LastIDSet.self, capacities)
        case .recentIDs: return body.visit(RecentIDs.self, capacities)
        case .idTimeMap: return body.visit(IDTimeMap.self, capacities)
        case .bloom: return body.visit(BloomFilter.self, filters)
        case .agingBloom: return body.visit(AgingBloomFilter.self, filters)
        case .cuckoo: return body.visit(CuckooFilter.self, filters)
        case .stableBloom: return body.visit(StableBloomFilter.self, filters)
        }
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
