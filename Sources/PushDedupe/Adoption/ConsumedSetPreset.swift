/// A consumed-set configuration this package ships: `FIFOSet(preset: .standard)`.
public typealias ConsumedSetPreset = StrategyPreset<ConsumedSetConfiguration>

extension StrategyPreset<ConsumedSetConfiguration> {
    /// 65,536 ids, 1% target false-positive rate, 30 s retention, 1,000 ids/s: the
    /// `ConsumedSetConfiguration()` defaults, far beyond what one phone needs (`dedupe-bench`
    /// sizes its cases from a device profile instead; ``RecommendedPreset`` carries that sizing).
    public static var standard: ConsumedSetPreset { ConsumedSetPreset("standard", ConsumedSetConfiguration()) }

    /// 4,096 ids with the standard rate, retention and speed: the size the guides' examples use,
    /// far more envelopes than one session's replays reach back.
    public static var compact: ConsumedSetPreset { ConsumedSetPreset("compact", ConsumedSetConfiguration(capacity: 4_096)) }

    /// Every preset, for tests that validate them.
    public static var all: [ConsumedSetPreset] { [standard, compact] + RecommendedPreset.versions.map(\.consumedSet) }
}

extension ConsumedSet {
    /// Builds the set from a shipped preset, which every consumed set accepts.
    ///
    /// - Complexity: the set's initializer.
    public init(preset: ConsumedSetPreset) {
        self = _buildingShippedPreset(preset, strategyID: Self.strategyID) { () throws(ConfigurationError) in
            try Self(configuration: preset.configuration)
        }
    }
}
