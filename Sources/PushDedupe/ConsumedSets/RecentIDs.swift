/// The last `capacity` distinct envelope ids in a plain array, scanned linearly (`recent-ids`):
/// the small FIFO push SDKs ship.
///
/// The pattern of firebase-android-sdk `FirebaseMessagingService` (a static `ArrayDeque`,
/// `RECENTLY_RECEIVED_MESSAGE_IDS_MAX_SIZE = 10`), Airship Android (`MAX_CANONICAL_IDS = 10`),
/// Swrve (16) and the react-native-firebase Android store (`MAX_SIZE_NOTIFICATIONS = 100`): look
/// the id up by scanning, and when it is absent, append it, dropping the oldest when full. A hit
/// changes nothing, as in the SDKs. The answers are exactly `fifo-set`'s at the same capacity;
/// what differs is the cost, which grows with `capacity` rather than staying flat.
///
/// - **Guarantees.** Never a false drop. A repeat is missed only after `capacity` newer distinct
///   ids have been accepted since the id was first accepted: at the SDKs' 10, an eleventh push
///   between a notification and its replay defeats it. Capacity 0 retains nothing and counts
///   every accepted id as an eviction.
/// - **Memory.** Fixed at construction: 16 bytes per slot.
/// - **Allocation.** None after `init`.
///
/// ```swift
/// var consumed = try RecentIDs(configuration: .init(capacity: 10))
/// ```
///
/// - Complexity: `consume` and `contains` are O(`capacity`): a scan of the retained ids. Meant
///   for the SDKs' few dozen; above a few hundred, `fifo-set` answers the same in O(1).
public struct RecentIDs: ConsumedSet, _CountedEntries, Sendable {
    public static let strategyID = "recent-ids"
    public static let guarantee: Guarantee = .exactForgetsOldest

    /// The most slots a linear scan is allowed: past this, every consume would scan more than a
    /// megabyte. `fifo-set` gives the same answers at any size.
    public static let maximumCapacity = 1 << 16

    /// Slots `0..<_count` hold ids; once full, `_next` is the oldest.
    @usableFromInline var _ids: [EnvelopeID]
    @usableFromInline let _capacity: Int
    /// The slot the next accepted id goes to.
    @usableFromInline var _next: Int
    @usableFromInline var _count: Int
    @usableFromInline var _evictions: Int

    /// Builds an empty set that retains at most `configuration.capacity` ids, allocating all of
    /// its storage now.
    ///
    /// - Throws: ``ConfigurationError`` when the capacity is negative or above
    ///   ``maximumCapacity``.
    /// - Complexity: O(`capacity`).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let capacity = configuration.capacity
        guard capacity >= 0 && capacity <= Self.maximumCapacity else {
            throw ConfigurationError(
                strategy: Self.strategyID, parameter: "capacity",
                reason: "must be in 0...\(Self.maximumCapacity) (a linear scan; use fifo-set above), got \(capacity)")
        }
        _ids = Array(repeating: EnvelopeID(high: 0, low: 0), count: capacity)
        _capacity = capacity
        _next = 0
        _count = 0
        _evictions = 0
    }
}

extension RecentIDs {
    /// Returns `false` if `id` is retained; otherwise records it, overwriting the oldest id when
    /// full, and returns `true`. `now` is ignored.
    ///
    /// - Complexity: O(`capacity`); allocates nothing.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        if contains(id) { return false }
        guard _capacity > 0 else {
            _evictions &+= 1
            return true
        }
        let slot = _next
        _ids.withUnsafeMutableBufferPointer { $0[slot] = id }
        if _count == _capacity { _evictions &+= 1 } else { _count &+= 1 }
        _next = slot &+ 1 == _capacity ? 0 : slot &+ 1
        return true
    }

    /// Whether `id` is retained: a scan of the retained slots.
    ///
    /// - Complexity: O(`count`).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        let count = _count
        return _ids.withUnsafeBufferPointer { ids in
            for slot in 0..<count where ids[slot] == id { return true }
            return false
        }
    }

    /// 16 bytes per slot.
    @inlinable
    public var footprint: Int { _capacity * MemoryLayout<EnvelopeID>.stride }

    /// The retained ids, oldest first.
    var _idsOldestFirst: [EnvelopeID] {
        _count < _capacity ? Array(_ids[0..<_count]) : Array(_ids[_next...] + _ids[..<_next])
    }
}
