/// Layer 2: the router's record of envelope ids it has already handled.
///
/// The router calls `consume(_:at:)` once per emitted envelope, before any asynchronous work and
/// on every early return, so a second emission of the same envelope on another lifecycle path is
/// stopped. Its contract:
///
/// - **Test-and-set.** `consume` returns `true` exactly when it judges the id unseen, and records
///   it either way. A `true` for an id consumed before is a *missed duplicate*; a `false` for an
///   id never consumed is a *false drop* (a wanted navigation lost).
/// - **Forgetting.** Exact unbounded sets never forget. Bounded and time-bounded sets forget by
///   the rule in their doc comment (oldest by insertion, least recently used, older than the
///   retention horizon, slot overwritten). Dropping a still-retained id to make room counts as an
///   eviction; ageing out past a time horizon does not.
/// - **Time.** `now` lets time-bounded sets expire ids; others ignore it. A `now` earlier than the
///   latest one given is treated as that latest time.
///
/// Conformers are value types whose per-call path allocates nothing once warmed up (except
/// `UnboundedSet`, which grows by design). They are `Sendable` by the protocol, as windows are.
public protocol ConsumedSet: Sendable {
    /// The stable kebab-case id used in reports, e.g. `bounded-lru`.
    static var strategyID: String { get }

    /// What the set promises by construction (see ``Guarantee``); declared by every conformer.
    static var guarantee: Guarantee { get }

    /// Builds the set, validating `configuration`.
    ///
    /// - Throws: ``ConfigurationError`` for a negative capacity, a false-positive rate outside
    ///   (0, 1), or any value the strategy cannot honour.
    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError)

    /// Returns `true` the first time `id` is seen (as far as the set remembers) and records it.
    ///
    /// - Complexity: stated by each conformer: O(1) expected for the exact sets (amortized for the
    ///   published `Set`'s growth), O(k) probes for the Bloom filters, O(1) average for the
    ///   cuckoo filter with kick chains bounded at 500 moves.
    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool

    /// Whether `id` would be judged already consumed, as of the latest time given to `consume`.
    /// Does not change recency.
    ///
    /// - Complexity: the same as `consume`.
    func contains(_ id: EnvelopeID) -> Bool

    /// Ids currently retained (for filters: insertions currently represented).
    ///
    /// - Complexity: O(1).
    var count: Int { get }

    /// Bytes of storage the structure holds, excluding allocator overhead.
    ///
    /// - Complexity: O(1).
    var footprint: Int { get }

    /// Retained ids dropped to make room since creation.
    ///
    /// - Complexity: O(1).
    var evictions: Int { get }
}

/// A consumed set that can answer a false positive: a filter. The harness reports its theory
/// beside the measured rate.
public protocol ProbabilisticConsumedSet: ConsumedSet {
    /// The false-positive probability for a never-seen id at the current fill, from theory.
    ///
    /// - Complexity: O(1).
    var theoreticalFalsePositiveRate: Double { get }
}
