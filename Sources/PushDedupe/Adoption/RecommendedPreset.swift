/// The pairs and parameters reference runs have recommended, one immutable version each.
///
/// `v1` is the first line of `Reports/headline.md` when it was added: "**Adopt `hash-deque` +
/// `fifo-set`** (exact + exact-forgets-oldest; window 500 ms, window reserves 8, capacity 448)",
/// sized from the device profile. `recommended()` builds `v1`; an app that wants to say so writes
/// the version:
///
/// ```swift
/// let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v1, store: .file(url))
/// ```
///
/// **Adding a version** when a new reference run recommends something else, in this file only:
/// 1. `public static let v2 = DeduplicatorPreset<NewWindow, NewSet>(version: "v2", window: …,
///    consumedSet: …)` with the headline's parameters;
/// 2. append it to ``versions``, and add `V2MainActor` / `V2Shared` aliases.
///
/// Never edit an existing version: apps adopted it, by its types (the aliases) and by the
/// snapshots it wrote. `RecommendedPresetTests` fails until some version matches the headline.
/// `recommended()` stays pinned to `v1`, because moving it changes its type for every app that
/// stored the result; an app adopts `v2` by naming it, and its saved set migrates when both sets
/// hold ids (`Guides/Snapshots.md` § Migration).
public enum RecommendedPreset {
    /// `hash-deque` + `fifo-set`, window 500 ms with capacity 8, consumed capacity 448.
    public static let v1 = DeduplicatorPreset<HashDequeWindow, FIFOSet>(
        version: "v1",
        window: WindowConfiguration(window: .milliseconds(500), capacity: 8),
        consumedSet: ConsumedSetConfiguration(capacity: 448))

    /// The main-actor deduplicator of `v1`, for a router's stored property.
    public typealias V1MainActor = MainActorDeduplicator<HashDequeWindow, FIFOSet>
    /// The thread-safe deduplicator of `v1`.
    public typealias V1Shared = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// `hash-deque` + `fifo-set`, window 500 ms with capacity 4, consumed capacity 1750: the pick
    /// once the device profile was sized from stated phone facts (a messaging app's 250 pushes a
    /// day, kept 7 days: `Guides/Workloads.md`) rather than from the synthetic episodes' spacing,
    /// keyed on push ids and saved after every consume.
    public static let v2 = DeduplicatorPreset<HashDequeWindow, FIFOSet>(
        version: "v2",
        window: WindowConfiguration(window: .milliseconds(500), capacity: 4),
        consumedSet: ConsumedSetConfiguration(capacity: 1750))

    /// The main-actor deduplicator of `v2` (the same types as `v1`).
    public typealias V2MainActor = MainActorDeduplicator<HashDequeWindow, FIFOSet>
    /// The thread-safe deduplicator of `v2`.
    public typealias V2Shared = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// Every version, oldest first.
    public static let versions: [any DeduplicatorPresetVersion] = [v1, v2]
}
