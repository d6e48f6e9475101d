/// The pairs, parameters and store designs reference runs have recommended, one immutable
/// version each. An app names the version it adopts, and gets the version's store at its file:
///
/// ```swift
/// let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: url)
/// ```
///
/// **Adding a version** when a new reference run recommends something else, in this file only:
/// `public static let vN = DeduplicatorPreset<Window, Set>(version: "vN", window: …,
/// consumedSet: …, storeDesign: …)` (`hashDequeFIFO` for the pair so far) with the headline's
/// parameters and store; append it to ``versions``, point ``latest`` at it, and add
/// `VNMainActor` / `VNShared` aliases.
///
/// Never edit an existing version: apps adopted it, by its types (the aliases), its parameters
/// and the files its store wrote. `RecommendedPresetTests` fails until some version matches the
/// headline. `recommended()` builds ``latest``: every version so far has the same types, so an
/// app's stored property keeps its type, and its saved set migrates (`Guides/Stores.md`
/// § Migration).
public enum RecommendedPreset {
    /// `hash-deque` + `fifo-set`, window 500 ms with capacity 8, consumed capacity 448.
    public static let v1 = hashDequeFIFO("v1", windowCapacity: 8, consumedCapacity: 448, storeDesign: .snapshot)

    /// The main-actor deduplicator of `v1`, for a router's stored property.
    public typealias V1MainActor = MainActorDeduplicator<HashDequeWindow, FIFOSet>
    /// The thread-safe deduplicator of `v1`.
    public typealias V1Shared = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// `hash-deque` + `fifo-set`, window 500 ms with capacity 4, consumed capacity 1750: the pick
    /// once the device profile was sized from stated phone facts (a messaging app's 250 pushes a
    /// day, kept 7 days: `Guides/Workloads.md`) rather than from the synthetic episodes' spacing,
    /// keyed on push ids and saved after every consume.
    public static let v2 = hashDequeFIFO("v2", windowCapacity: 4, consumedCapacity: 1750, storeDesign: .snapshot)

    /// The main-actor deduplicator of `v2` (the same types as `v1`).
    public typealias V2MainActor = MainActorDeduplicator<HashDequeWindow, FIFOSet>
    /// The thread-safe deduplicator of `v2`.
    public typealias V2Shared = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// `v2`'s pair and parameters with the store the run picked by measurement, `journal`: among
    /// the designs that lost no acknowledged id under SIGKILL and none with two writer processes,
    /// the cheapest calling-thread p99 per consume, a lead under 2× or a p99 under 100 µs being a
    /// tie that the fewer bytes written per consume win (`Guides/Stores.md` § How the pick
    /// chooses). Adopt it with its store
    /// at your file: `MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: url)`; a
    /// `v2` snapshot at that path migrates at the first launch.
    public static let v3 = hashDequeFIFO("v3", windowCapacity: 4, consumedCapacity: 1750, storeDesign: .journal)

    /// The main-actor deduplicator of `v3` (the same types as `v1` and `v2`).
    public typealias V3MainActor = MainActorDeduplicator<HashDequeWindow, FIFOSet>
    /// The thread-safe deduplicator of `v3`.
    public typealias V3Shared = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// Every version, oldest first.
    public static let versions: [any DeduplicatorPresetVersion] = [v1, v2, v3]

    /// The newest version, which `recommended()` builds.
    public static var latest: DeduplicatorPreset<HashDequeWindow, FIFOSet> { v3 }

    /// A version of the pair every version so far has: `hash-deque` over a 500 ms window, then
    /// `fifo-set`.
    private static func hashDequeFIFO(
        _ version: String, windowCapacity: Int, consumedCapacity: Int, storeDesign: DedupeStore.Design
    ) -> DeduplicatorPreset<HashDequeWindow, FIFOSet> {
        DeduplicatorPreset(
            version: version, window: WindowConfiguration(window: .milliseconds(500), capacity: windowCapacity),
            consumedSet: ConsumedSetConfiguration(capacity: consumedCapacity), storeDesign: storeDesign)
    }
}
