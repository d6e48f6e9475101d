/// The pair and parameters the reference run recommends: the first line of
/// `Reports/headline.md`, "**Adopt `hash-deque` + `aging-bloom`** (window 500 ms, window capacity
/// 4096, consumed capacity 65536, target FP 1.00%, retention 30.0 s)".
///
/// This is the one place that states the recommendation in code. When a new reference run
/// recommends something else, change the two type aliases and the two presets below;
/// `RecommendedPresetTests` fails, naming what differs, until they match the headline again.
///
/// ```swift
/// let dedupe = MainActorDeduplicator.recommended()
/// ```
public enum RecommendedPreset {
    /// Layer 1 of the recommended pair.
    public typealias Window = HashDequeWindow
    /// Layer 2 of the recommended pair.
    public typealias ConsumedSet = AgingBloomFilter

    /// The window's parameters in the headline.
    public static let window = WindowPreset("recommended", WindowConfiguration(window: .milliseconds(500), capacity: 4_096))
    /// The consumed set's parameters in the headline.
    public static let consumedSet = ConsumedSetPreset(
        "recommended", ConsumedSetConfiguration(capacity: 65_536, falsePositiveRate: 0.01, retention: .seconds(30)))
}

/// The main-actor deduplicator of the recommended pair, for a router's stored property.
public typealias RecommendedMainActorDeduplicator = MainActorDeduplicator<RecommendedPreset.Window, RecommendedPreset.ConsumedSet>

/// The thread-safe deduplicator of the recommended pair.
public typealias RecommendedSharedDeduplicator = SharedDeduplicator<RecommendedPreset.Window, RecommendedPreset.ConsumedSet>
