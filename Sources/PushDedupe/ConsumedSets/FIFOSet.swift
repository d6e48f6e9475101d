/// An exact set of the last `capacity` distinct envelope ids, forgotten in insertion order.
///
/// The ids sit in a ring; an open-addressing index of `UInt32` ring-slot numbers (keys compared
/// through the ring, linear probing, deletion by backward shift) maps each id to its slot. A hit changes nothing
/// (no move-on-hit), so a hit costs one probe and no writes. A miss while full overwrites the
/// oldest slot and counts an eviction.
///
/// This is the bounded set dedupe needs: a replay arrives within a few lifecycle callbacks of
/// the first emission, so refreshing recency on a hit, as `BoundedLRU` does, buys nothing but
/// link writes on every hit.
///
/// - **Guarantees.** Never a false drop. A repeat is missed only after `capacity` newer distinct
///   ids have been accepted since the id was first accepted. Capacity 0 retains nothing and
///   counts every accepted id as an eviction.
/// - **Memory.** Fixed at construction: 16 bytes per ring slot plus `UInt32` index buckets at
///   load ≤ 0.5 (8 bytes per slot when `capacity` is a power of two): 24 bytes per entry at 64K.
/// - **Allocation.** None after `init`; deletion shifts entries back instead of leaving
///   tombstones, so the table never needs a rebuild.
///
/// ```swift
/// var consumed = try FIFOSet(configuration: .init(capacity: 4_096))
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) expected.
public struct FIFOSet: ConsumedSet {
    public static let strategyID = "fifo-set"

    @usableFromInline let _capacity: Int
    /// The ring. Slots `0..<_count` hold ids; once full, `_next` is the oldest.
    @usableFromInline var _ids: [EnvelopeID]
    @usableFromInline var _index: _SlotIndex
    /// The slot the next accepted id goes to.
    @usableFromInline var _next: Int
    @usableFromInline var _count: Int
    @usableFromInline var _evictions: Int

    /// Builds an empty set that retains at most `configuration.capacity` ids, allocating all of
    /// its storage now.
    ///
    /// - Throws: ``ConfigurationError`` when the capacity is negative or above 2³⁰.
    /// - Complexity: O(`capacity`).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let capacity = try _SlotIndex.validatedSlotCapacity(configuration.capacity, strategy: Self.strategyID)
        _capacity = capacity
        _ids = Array(repeating: EnvelopeID(high: 0, low: 0), count: capacity)
        _index = _SlotIndex(slotCapacity: capacity)
        _next = 0
        _count = 0
        _evictions = 0
    }
}
