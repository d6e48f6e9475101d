import struct Foundation.URL

/// A named, versioned pair of strategies and their parameters: what an app adopts when it writes
/// `MainActorDeduplicator(preset: RecommendedPreset.v1, store: …)`.
///
/// The types are generic parameters, so a version fixes them at compile time, and its window and
/// consumed-set presets fix the parameters. A version, once shipped, never changes: an app that
/// adopted `v1` builds and restores its snapshots the same way after every update of the package.
///
/// - Complexity: building a deduplicator from a preset is the strategies' initializers.
public struct DeduplicatorPreset<Window: FingerprintWindow, Consumed: SnapshottableConsumedSet>: DeduplicatorPresetVersion, Hashable {
    /// The version's name, e.g. `v1`.
    public let version: String
    /// Layer 1's parameters.
    public let window: WindowPreset
    /// Layer 2's parameters.
    public let consumedSet: ConsumedSetPreset
    /// The store design the version was picked with (`v1` and `v2` shipped with snapshots).
    public let storeDesign: DedupeStore.Design

    init(version: String, window: WindowConfiguration, consumedSet: ConsumedSetConfiguration, storeDesign: DedupeStore.Design) {
        self.version = version
        self.window = WindowPreset("recommended-\(version)", window)
        self.consumedSet = ConsumedSetPreset("recommended-\(version)", consumedSet)
        self.storeDesign = storeDesign
    }

    /// The version's store design at `url`, with each design's defaults (kill durability,
    /// `completeUntilFirstUserAuthentication`; a snapshot saved after every consume).
    public func store(at url: URL) -> DedupeStore {
        switch storeDesign {
        case .snapshot: .snapshot(url)
        case .journal: .journal(url)
        case .mappedJournal: .mappedJournal(url)
        case .sqlite: .sqlite(url)
        }
    }

    public var windowType: any FingerprintWindow.Type { Window.self }
    public var consumedSetType: any SnapshottableConsumedSet.Type { Consumed.self }

    /// Both layers, empty.
    ///
    /// - Complexity: the strategies' initializers.
    public func makePipeline() -> TwoLayerPipeline<Window, Consumed> {
        TwoLayerPipeline(window: Window(preset: window), consumed: Consumed(preset: consumedSet))
    }
}

/// What every preset version states, whatever its types: for tools and tests that list the
/// versions (``RecommendedPreset/versions``).
public protocol DeduplicatorPresetVersion: Sendable, CustomStringConvertible {
    /// The version's name, e.g. `v1`.
    var version: String { get }
    /// Layer 1's strategy.
    var windowType: any FingerprintWindow.Type { get }
    /// Layer 2's strategy.
    var consumedSetType: any SnapshottableConsumedSet.Type { get }
    /// Layer 1's parameters.
    var window: WindowPreset { get }
    /// Layer 2's parameters.
    var consumedSet: ConsumedSetPreset { get }
    /// The store design the version was picked with.
    var storeDesign: DedupeStore.Design { get }
}

extension DeduplicatorPresetVersion {
    /// `v1: hash-deque + fifo-set (window 500 ms, window capacity 8, capacity 448)`.
    public var description: String {
        let milliseconds = Double(window.configuration.window.wholeNanoseconds) / 1e6
        let length = milliseconds == milliseconds.rounded() ? String(Int64(milliseconds)) : String(milliseconds)
        return "\(version): \(windowType.strategyID) + \(consumedSetType.strategyID) (window \(length) ms, "
            + "window capacity \(window.configuration.capacity), capacity \(consumedSet.configuration.capacity))"
    }
}
