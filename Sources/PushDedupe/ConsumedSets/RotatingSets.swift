/// An exact, time-bounded set: two generations of exact sets, rotated every `retention`.
///
/// Time is cut into epochs of length T = `retention`, aligned to the first `consume`. Ids
/// accepted during the current epoch go to the current generation; the previous epoch's ids stay
/// in the other one. Entering the next epoch drops the previous generation and reuses its
/// storage for the new current one; skipping a whole epoch (no consume for over T) drops both.
///
/// - **Guarantees.** Never a false drop. An accepted id is remembered while it is at most
///   `retention` old (inclusive), so a repeat is missed only after the retention horizon, and
///   it is forgotten once it is `2 × retention` old; between the two, whether it is remembered
///   depends on where in its epoch it arrived. Ages are measured on the latest time given to
///   `consume` (time never runs backwards inside the set). A hit does not refresh the id.
///   `evictions` is always 0: ageing out is not an eviction.
/// - **Memory.** Proportional to the traffic of the last two epochs (at most 2T), not to the
///   session's length: per generation 16 bytes per reserved id plus 2–4 `UInt32` index lanes,
///   i.e. 24–32 bytes per id. `capacity` is each generation's initial reservation.
/// - **Allocation.** None per event in steady state: a rotation empties the older generation in
///   place and reuses it. A generation that outgrows its reservation doubles it, which stops
///   once the peak traffic per epoch has been seen.
///
/// ```swift
/// var consumed = try RotatingSets(configuration: .init(capacity: 1_024, retention: .seconds(30)))
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) expected; a rotation costs O(size of the
///   dropped generation's table), once per epoch; a doubling rehashes one generation.
public struct RotatingSets: ConsumedSet, Sendable {
    public static let strategyID = "rotating-sets"
    public static let guarantee: Guarantee = .exactForgetsAfterRetention

    /// One generation: ids in arrival order, indexed.
    @usableFromInline typealias _Generation = _IndexedKeys<EnvelopeID>

    /// Epochs of length T, the retention.
    @usableFromInline var _clock: _GenerationClock
    /// Ids accepted since `_clock.start`.
    @usableFromInline var _current: _Generation
    /// Ids accepted during the epoch before `_clock.start`.
    @usableFromInline var _previous: _Generation

    /// Builds an empty set that remembers ids for at least `configuration.retention`, reserving
    /// room for `configuration.capacity` ids in each generation.
    ///
    /// - Throws: ``ConfigurationError`` when the retention is not positive or the capacity is
    ///   negative or above 2³⁰.
    /// - Complexity: O(`capacity`).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let retention = try Self._positiveRetention(configuration)
        let capacity = try Self._indexedCapacity(configuration)
        _clock = _GenerationClock(period: retention)
        _current = _Generation(reservation: capacity)
        _previous = _Generation(reservation: capacity)
    }
}
