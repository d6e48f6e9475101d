/// A window configuration this package ships, so building a window from it cannot fail.
///
/// Only the module defines presets, and `StrategyPresetTests` builds every window from every
/// preset, so `init(preset:)` needs no `try`:
///
/// ```swift
/// var window = HashDequeWindow(preset: .standard)
/// ```
public struct WindowPreset: Hashable, Sendable, CustomStringConvertible {
    /// The configuration the preset stands for.
    public let configuration: WindowConfiguration
    /// A short name for messages, e.g. `standard`.
    public let name: String

    init(_ name: String, _ configuration: WindowConfiguration) {
        self.name = name
        self.configuration = configuration
    }

    /// 500 ms with room for 4,096 live fingerprints, far more than one phone's bursts
    /// (`dedupe-bench` sizes its cases from a device profile; ``RecommendedPreset`` carries it).
    public static let standard = WindowPreset("standard", WindowConfiguration(window: .milliseconds(500), capacity: 4_096))

    /// 500 ms with room for 64: the `WindowConfiguration()` default, enough for one user's taps.
    public static let compact = WindowPreset("compact", WindowConfiguration())

    /// Every preset, for tests that validate them.
    public static var all: [WindowPreset] { [standard, compact] + RecommendedPreset.versions.map(\.window) }

    public var description: String { name }
}

extension FingerprintWindow {
    /// Builds the window from a shipped preset, which every window accepts.
    ///
    /// - Complexity: the window's initializer.
    public init(preset: WindowPreset) {
        self = _buildingShippedPreset(preset, strategyID: Self.strategyID) { () throws(ConfigurationError) in
            try Self(configuration: preset.configuration)
        }
    }
}
