/// The pair and parameters the reference run recommends: the first line of
/// `Reports/headline.md`, "**Adopt `hash-deque` + `fifo-set`** (exact + exact-forgets-oldest;
/// window 500 ms, window reserves 8, capacity 448)", sized from the device profile.
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
    public typealias ConsumedSet = FIFOSet

    /// The window's parameters in the headline.
    public static let window = WindowPreset("recommended", WindowConfiguration(window: .milliseconds(500), capacity: 8))
    /// The consumed set's parameters in the headline.
    public static let consumedSet = ConsumedSetPreset("recommended", ConsumedSetConfiguration(capacity: 448))
}

/// The main-actor deduplicator of the recommended pair, for a router's stored property.
public typealias RecommendedMainActorDeduplicator = MainActorDeduplicator<RecommendedPreset.Window, RecommendedPreset.ConsumedSet>

/// The thread-safe deduplicator of the recommended pair.
public typealias RecommendedSharedDeduplicator = SharedDeduplicator<RecommendedPreset.Window, RecommendedPreset.ConsumedSet>
