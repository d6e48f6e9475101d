/// A configuration this package ships, named, so building a strategy from it cannot fail:
/// ``WindowPreset`` for windows, ``ConsumedSetPreset`` for consumed sets.
///
/// Only the module defines presets, and `StrategyPresetTests` builds every strategy from every
/// preset of its kind, so `init(preset:)` needs no `try`:
///
/// ```swift
/// var window = HashDequeWindow(preset: .standard)
/// var consumed = FIFOSet(preset: .standard)
/// ```
public struct StrategyPreset<Configuration: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The configuration the preset stands for.
    public let configuration: Configuration
    /// A short name for messages, e.g. `standard`.
    public let name: String

    init(_ name: String, _ configuration: Configuration) {
        self.name = name
        self.configuration = configuration
    }

    public var description: String { name }
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
