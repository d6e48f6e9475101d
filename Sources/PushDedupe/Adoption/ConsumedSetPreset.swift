/// A consumed-set configuration this package ships, so building a set from it cannot fail.
///
/// Only the module defines presets, and `StrategyPresetTests` builds every consumed set from
/// every preset, so `init(preset:)` needs no `try`:
///
/// ```swift
/// var consumed = FIFOSet(preset: .standard)
/// ```
public struct ConsumedSetPreset: Hashable, Sendable, CustomStringConvertible {
    /// The configuration the preset stands for.
    public let configuration: ConsumedSetConfiguration
    /// A short name for messages, e.g. `standard`.
    public let name: String

    init(_ name: String, _ configuration: ConsumedSetConfiguration) {
        self.name = name
        self.configuration = configuration
    }

    /// 65,536 ids, 1% target false-positive rate, 30 s retention, 1,000 ids/s: the
    /// `ConsumedSetConfiguration()` defaults, far beyond what one phone needs (`dedupe-bench`
    /// sizes its cases from a device profile instead; ``RecommendedPreset`` carries that sizing).
    public static let standard = ConsumedSetPreset("standard", ConsumedSetConfiguration())

    /// 4,096 ids with the standard rate, retention and speed: the size the guides' examples use,
    /// far more envelopes than one session's replays reach back.
    public static let compact = ConsumedSetPreset("compact", ConsumedSetConfiguration(capacity: 4_096))

    /// Every preset, for tests that validate them.
    public static var all: [ConsumedSetPreset] { [standard, compact] + RecommendedPreset.versions.map(\.consumedSet) }

    public var description: String { name }
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

/// What `build` makes from a preset this package ships, which cannot be rejected: a strategy that
/// rejects one traps, naming it. Unreachable: `StrategyPresetTests` builds every window and
/// consumed set from every preset.
func _buildingShippedPreset<Built>(
    _ preset: some CustomStringConvertible, strategyID: String, _ build: () throws(ConfigurationError) -> Built
) -> Built {
    do {
        return try build()
    } catch {
        preconditionFailure("\(strategyID) rejected the shipped preset \(preset): \(error)")
    }
}
