import PushDedupe
import Testing

/// `init(preset:)` cannot throw because every shipped preset is valid for every strategy; this
/// suite is what makes that true.
@Suite struct StrategyPresetTests {
    static let windows: [any FingerprintWindow.Type] = [
        PublishedLiteralWindow.self, ArrayScanWindow.self, RingBufferWindow.self, HashDequeWindow.self,
        EpochSetsWindow.self, DirectMappedWindow.self,
    ]
    static let consumedSets: [any ConsumedSet.Type] = [
        UnboundedSet.self, BoundedLRU.self, BloomFilter.self, FIFOSet.self, RotatingSets.self,
        AgingBloomFilter.self, CuckooFilter.self, StableBloomFilter.self, DirectMappedSet.self,
    ]

    @Test(arguments: WindowPreset.all)
    func everyWindowAcceptsEveryWindowPreset(_ preset: WindowPreset) throws {
        for type in Self.windows {
            #expect(throws: Never.self, "\(type.strategyID) rejects \(preset)") {
                _ = try type.init(configuration: preset.configuration)
            }
            #expect(Self.window(type, preset: preset).window == preset.configuration.window)
        }
    }

    @Test(arguments: ConsumedSetPreset.all)
    func everyConsumedSetAcceptsEveryConsumedSetPreset(_ preset: ConsumedSetPreset) throws {
        for type in Self.consumedSets {
            #expect(throws: Never.self, "\(type.strategyID) rejects \(preset)") {
                _ = try type.init(configuration: preset.configuration)
            }
            var set = Self.consumedSet(type, preset: preset)
            #expect(Self.consume(&set, EnvelopeID(high: 1, low: 2)))
        }
    }

    @Test func thePresetsAreTheDocumentedConfigurations() {
        #expect(WindowPreset.standard.configuration == WindowConfiguration(window: .milliseconds(500), capacity: 4_096))
        #expect(WindowPreset.compact.configuration == WindowConfiguration())
        #expect(ConsumedSetPreset.standard.configuration == ConsumedSetConfiguration())
        #expect(ConsumedSetPreset.compact.configuration.capacity == 4_096)
        #expect(Set(WindowPreset.all.map(\.name)).count == WindowPreset.all.count)
    }

    static func window<W: FingerprintWindow>(_ type: W.Type, preset: WindowPreset) -> W { W(preset: preset) }

    static func consumedSet<C: ConsumedSet>(_ type: C.Type, preset: ConsumedSetPreset) -> any ConsumedSet { C(preset: preset) }

    static func consume(_ set: inout any ConsumedSet, _ id: EnvelopeID) -> Bool {
        func open<C: ConsumedSet>(_ concrete: inout C) -> Bool { concrete.consume(id, at: .zero) }
        return open(&set)
    }
}
