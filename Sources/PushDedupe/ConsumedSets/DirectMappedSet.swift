/// A direct-mapped exact table: each slot holds the last full id hashed to it.
///
/// The table has the power of two at or above `capacity` slots; an id lives only in slot
/// `hash64 & mask`. Accepting an id whose slot holds a different id overwrites it and counts an
/// eviction. There is no probing, no list and no expiry: one load and one compare per consume.
///
/// - **Guarantees.** Never a false drop: a slot answers "seen" only for the exact 128-bit id it
///   holds. A repeat is missed only when its slot was overwritten by another id since, which is
///   counted in `evictions`. Over *m* slots, an id survives the next *k* distinct ids with
///   probability (1 − 1/m)^k, so unlike `FIFOSet` a recent id can be lost early: size `capacity`
///   well above the number of ids that can separate an emission from its replay.
/// - **Memory.** Fixed at construction: 16 bytes per slot plus one occupancy bit, i.e. 16.125
///   bytes per slot (per entry only when every slot is filled).
/// - **Allocation.** None after `init`. Capacity 0 retains nothing and counts every accepted id
///   as an eviction.
///
/// ```swift
/// var consumed = try DirectMappedSet(configuration: .init(capacity: 65_536))
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) worst case.
public struct DirectMappedSet: ConsumedSet, _CountedEntries, Sendable {
    public static let strategyID = "direct-mapped"
    public static let guarantee: Guarantee = .missesOnly

    @usableFromInline var _ids: [EnvelopeID]
    /// Bit `s` says whether slot `s` holds an id: no 128-bit value is free to mark an empty slot.
    @usableFromInline var _occupied: [UInt64]
    @usableFromInline let _slotMask: Int
    /// Occupied slots.
    @usableFromInline var _count: Int
    @usableFromInline var _evictions: Int

    /// Builds an empty table of the power of two at or above `configuration.capacity` slots.
    ///
    /// - Throws: ``ConfigurationError`` when the capacity is negative or above 2³⁰.
    /// - Complexity: O(`capacity`).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let capacity = try Self._indexedCapacity(configuration)
        var slots = capacity == 0 ? 0 : 1
        while slots < capacity { slots &<<= 1 }
        _ids = Array(repeating: EnvelopeID(high: 0, low: 0), count: slots)
        _occupied = Array(repeating: 0, count: (slots + 63) / 64)
        _slotMask = slots - 1
        _count = 0
        _evictions = 0
    }
}
