@_spi(Bench) import PushDedupe
import Testing

private func sendable<T: Sendable>(_: T.Type) -> String { "\(T.self)" }

/// Every strategy and the pipeline cross threads; `FIFOSet`'s class storage is shared between
/// copies and must be copied before either writes.
@Suite struct SendableConformanceTests {
    /// Every registered strategy, through a generic `Sendable` constraint: this compiles for any
    /// new one because the strategy protocols refine `Sendable`.
    static var strategyNames: [String] {
        struct Windows: WindowRegistryVisitor {
            var names: [String] = []
            mutating func visit<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String) {
                names.append(sendable(W.self))
            }
        }
        struct Sets: ConsumedSetRegistryVisitor {
            var names: [String] = []
            mutating func visit<C: ConsumedSet>(
                _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
            ) {
                names.append(sendable(C.self))
            }
        }
        var windows = Windows()
        StrategyRegistry.visitWindows(&windows)
        var sets = Sets()
        StrategyRegistry.visitConsumedSets(&sets)
        return windows.names + sets.names
    }

    /// The pipelines, deduplicators and adoption types, by name: this compiles only while each is
    /// `Sendable`.
    static var adoptionNames: [String] {
        [
            sendable(TwoLayerPipeline<HashDequeWindow, FIFOSet>.self), sendable(RecommendedPreset.V1Shared.self),
            sendable(RecommendedPreset.V1MainActor.self), sendable(TraceRecorder<TraceBuffer>.self),
            sendable(TraceRecorder<TraceFileSink>.self), sendable(DedupeStore.self), sendable(RestoreOutcome.self),
            sendable(DedupeCounters.self), sendable(DeduplicatorPreset<HashDequeWindow, FIFOSet>.self),
        ]
    }

    @Test func strategiesPipelinesAndDeduplicatorsAreSendable() {
        let registered = StrategyRegistryTests.windowTypes.map { "\($0)" } + StrategyRegistryTests.consumedSetTypes.map { "\($0)" }
        #expect(Set(Self.strategyNames) == Set(registered))
        #expect(Set(Self.adoptionNames).count == 9)
    }

    /// Copies of one set, written by concurrent tasks: each copy ends as a serial run of its own
    /// ids would, and the original, never written, still holds only its own.
    @Test func copiesOfASharedFIFOSetDivergeSafelyAcrossTasks() async {
        var original = FIFOSet(preset: .compact)
        let shared = (0..<100).map { EnvelopeID(high: 0, low: UInt64($0)) }
        for id in shared { _ = original.consume(id, at: .zero) }
        let base = original
        let results = await withTaskGroup(of: (Int, FIFOSet).self) { group in
            for task in 0..<4 {
                group.addTask {
                    var copy = base
                    for index in 0..<5_000 { _ = copy.consume(EnvelopeID(high: UInt64(task + 1), low: UInt64(index)), at: .zero) }
                    return (task, copy)
                }
            }
            var all: [(Int, FIFOSet)] = []
            for await result in group { all.append(result) }
            return all
        }
        for (task, copy) in results {
            var reference = base
            for index in 0..<5_000 { _ = reference.consume(EnvelopeID(high: UInt64(task + 1), low: UInt64(index)), at: .zero) }
            #expect(copy.count == reference.count)
            for index in stride(from: 0, to: 5_000, by: 7) {
                let id = EnvelopeID(high: UInt64(task + 1), low: UInt64(index))
                #expect(copy.contains(id) == reference.contains(id))
                #expect(!original.contains(id))
            }
            for other in 1...4 where other != task + 1 {
                #expect(!copy.contains(EnvelopeID(high: UInt64(other), low: 4_999)))
            }
        }
        #expect(shared.allSatisfy(original.contains) && original.count == 100)
    }
}
