/// A window configuration this package ships: `HashDequeWindow(preset: .standard)`.
public typealias WindowPreset = StrategyPreset<WindowConfiguration>

extension StrategyPreset<WindowConfiguration> {
    /// 500 ms with room for 4,096 live fingerprints, far more than one phone's bursts
    /// (`dedupe-bench` sizes its cases from a device profile; ``RecommendedPreset`` carries it).
    public static var standard: WindowPreset {
        WindowPreset("standard", WindowConfiguration(window: .milliseconds(500), capacity: 4_096))
    }

    /// 500 ms with room for 64: the `WindowConfiguration()` default, enough for one user's taps.
    public static var compact: WindowPreset { WindowPreset("compact", WindowConfiguration()) }

    /// Every preset, for tests that validate them.
    public static var all: [WindowPreset] { [standard, compact] + RecommendedPreset.versions.map(\.window) }
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
