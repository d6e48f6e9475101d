/// The published layer 2: every consumed envelope id in a Swift `Set`, kept forever.
///
/// This is the reference row for consumed sets. It is exact in both directions: never a false
/// drop and never a missed duplicate, for the life of the app. The price is memory that only
/// grows: 16 bytes per bucket plus a bit, at a load factor of at most 0.75, which is 21–43 bytes
/// per id depending on where the count sits between two doublings (32.25 at 65,536 ids). `evictions`
/// is always 0.
///
/// It is the one set that hashes with Swift's per-process seeded `Hasher`, as the published code
/// does; an exact set answers the same whatever the seed, so runs stay reproducible.
///
/// ```swift
/// var consumed = try UnboundedSet(configuration: .init(capacity: 1_024))
/// consumed.consume(id, at: now)  // true
/// consumed.consume(id, at: now)  // false
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) on average; `consume` is amortized O(1), since
///   the table doubles (and rehashes every id) when it fills.
public struct UnboundedSet: ConsumedSet, Sendable {
    public static let strategyID = "set"
    public static let guarantee: Guarantee = .exact

    @usableFromInline var _ids: Set<EnvelopeID>

    /// Builds an empty set with room for `configuration.capacity` ids before its first growth.
    ///
    /// - Throws: ``ConfigurationError`` when the capacity is negative.
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        _ids = try Set(minimumCapacity: _CapacityValidation.validated(configuration.capacity, strategy: Self.strategyID))
    }

    /// - Complexity: amortized O(1); a call that fills the table rehashes every id.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        _ids.insert(id).inserted
    }

    /// - Complexity: O(1) on average.
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        _ids.contains(id)
    }

    @inlinable
    public var count: Int { _ids.count }

    /// The hash table's buckets (16 bytes each) and its occupancy bitmap. `Set` keeps its load
    /// factor at most 3/4 over a power-of-two bucket count, so the bucket count follows from
    /// `capacity`.
    @inlinable
    public var footprint: Int {
        guard _ids.capacity > 0 else { return 0 }
        var buckets = 1
        while buckets * 3 / 4 < _ids.capacity { buckets &<<= 1 }
        return buckets * MemoryLayout<EnvelopeID>.stride + (buckets + 7) / 8
    }

    /// Always 0: the set never forgets.
    @inlinable
    public var evictions: Int { 0 }
}
