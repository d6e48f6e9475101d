/// Layer 1: drops a second payload for the same screen within a short window.
///
/// The window sits right after a payload is normalized to a route. Its contract:
///
/// - **Seen.** A fingerprint is *seen* at time `t₀` when `admit(_:at:)` returned `true` for it at
///   `t₀`. A suppressed call does not refresh `t₀`: a stream of repeats 400 ms apart under a
///   500 ms window admits every other one, exactly like the published code.
/// - **Boundary.** An entry seen at `t₀` is inside the window at `now` while
///   `now - t₀ <= window`: an entry seen exactly `window` ago still suppresses. A window of zero
///   therefore suppresses only repeats at the same instant.
/// - **Time going backwards.** A `now` earlier than the latest time a window was given is treated
///   as that latest time: time never runs backwards inside a window, and nothing traps.
/// - **Eviction.** A bounded window that must record a fingerprint while full drops a live entry
///   (one still inside the window) to make room and counts it in `evictions`. A repeat of an
///   evicted fingerprint is admitted: a missed duplicate, never a false drop. Reclaiming expired
///   entries is not an eviction.
///
/// Conformers are value types whose per-call path allocates nothing once warmed up, except the
/// published port `PublishedLiteralWindow`, which builds a `String` per call as the article does.
/// They are `Sendable` by the protocol, so a benchmark or a deduplicator can hand them (and their
/// metatypes) across threads, and a new window is checked by the compiler, not by a test list.
public protocol FingerprintWindow: Sendable {
    /// The stable kebab-case id used in reports, e.g. `ring-buffer`.
    static var strategyID: String { get }

    /// What the window promises by construction (see ``Guarantee``); its time parameter is the
    /// window length. Declared by every conformer.
    static var guarantee: Guarantee { get }

    /// Builds the window, validating `configuration`.
    ///
    /// - Throws: ``ConfigurationError`` for a negative window or capacity, or one the strategy
    ///   cannot honour.
    init(configuration: WindowConfiguration) throws(ConfigurationError)

    /// The window length this instance was built with.
    var window: Duration { get }

    /// Tests and records in one step: returns `true` and records `fingerprint` at `now` when no
    /// entry for it is inside the window; returns `false` otherwise.
    ///
    /// - Complexity: stated by each conformer; O(1) amortized for the hash-based ones.
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool

    /// Entries currently held, including expired ones not yet reclaimed.
    ///
    /// - Complexity: O(1).
    var count: Int { get }

    /// Bytes of storage the structure holds (capacity, not just `count`), excluding allocator
    /// overhead. Compare with the allocator's measurement in the reports.
    ///
    /// - Complexity: O(1).
    var footprint: Int { get }

    /// Live entries dropped to make room since creation.
    ///
    /// - Complexity: O(1).
    var evictions: Int { get }
}
