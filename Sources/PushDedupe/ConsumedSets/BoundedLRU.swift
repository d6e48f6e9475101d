/// An exact set of the `capacity` most recently used envelope ids.
///
/// A `consume` that hits refreshes the id's recency; one that misses while full evicts the least
/// recently used id and counts it in `evictions`.
///
/// - **Guarantees.** Never a false drop. A repeat is missed only when `capacity` distinct other
///   ids have been consumed since the id's last consume (hit or miss), so a frequently replayed
///   id is never forgotten. A burst of `capacity` new ids can still push out an id whose replay
///   is a second away: it forgets by count, not by time. Capacity 0 retains nothing and counts
///   every accepted id as an eviction.
/// - **Memory.** Fixed at construction: per slot an id (16 bytes) and two `Int32` links (8
///   bytes), plus a `_SlotIndex` of `UInt32` lanes, two per slot when `capacity` is a power of
///   two of at least 4 (8 bytes): 32 bytes per entry at 64K capacity.
/// - **Allocation.** None after `init`: the slots form an intrusive doubly linked list over a
///   slab, threaded with integer links rather than class nodes.
///
/// ```swift
/// var consumed = try BoundedLRU(configuration: .init(capacity: 4_096))
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) expected.
public struct BoundedLRU: ConsumedSet, _CountedEntries, Sendable {
    public static let strategyID = "bounded-lru"
    public static let guarantee: Guarantee = .exactForgetsOldest

    /// The two neighbours of a slot in recency order, towards the least and the most recently
    /// used end; `-1` ends the list. A tuple, so the inlined path needs no hand-written init.
    @usableFromInline typealias _Links = (older: Int32, newer: Int32)

    @usableFromInline let _capacity: Int
    /// Slot `s` holds `_ids[s]` for `s < _count`; slots fill in order and are reused on eviction.
    @usableFromInline var _ids: [EnvelopeID]
    @usableFromInline var _links: [_Links]
    @usableFromInline var _index: _SlotIndex
    /// The least recently used slot, or `-1` when empty.
    @usableFromInline var _oldest: Int32
    /// The most recently used slot, or `-1` when empty.
    @usableFromInline var _newest: Int32
    @usableFromInline var _count: Int
    @usableFromInline var _evictions: Int

    /// Builds an empty set that retains at most `configuration.capacity` ids, allocating all of
    /// its storage now.
    ///
    /// - Throws: ``ConfigurationError`` when the capacity is negative or above 2³⁰.
    /// - Complexity: O(`capacity`).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let capacity = try Self._indexedCapacity(configuration)
        _capacity = capacity
        _ids = Array(repeating: EnvelopeID(high: 0, low: 0), count: capacity)
        _links = Array(repeating: (older: -1, newer: -1), count: capacity)
        _index = _SlotIndex(slotCapacity: capacity)
        _oldest = -1
        _newest = -1
        _count = 0
        _evictions = 0
    }
}
