/// One slot holding the last envelope id consumed (`last-id`): what most push SDKs ship.
///
/// The pattern of OneSignal iOS (`_lastnonActiveMessageId`, and the one id it persists as
/// `GT_LAST_MESSAGE_OPENED_`), Iterable (`lastPushPayload`), Leanplum
/// (`notificationHandledFromStart`), react-native-firebase iOS (`_initialNotification`) and Expo
/// (`lastResponse`): a repeat is caught only when nothing else was handled in between. Accepting
/// a different id replaces the slot and counts the old one as an eviction.
///
/// - **Guarantees.** Never a false drop: the slot answers "seen" only for the exact 128-bit id it
///   holds. A repeat is missed as soon as any other id was accepted after it (capacity 1 in
///   `fifo-set`'s terms), so two interleaved pushes defeat it. `capacity`, the retention and the
///   other parameters are ignored.
/// - **Memory.** 16 bytes inline; no heap storage.
/// - **Allocation.** None, ever.
///
/// ```swift
/// var consumed = try LastIDSet(configuration: .init())
/// ```
///
/// - Complexity: `consume` and `contains` are O(1): one 128-bit compare.
public struct LastIDSet: ConsumedSet, Sendable {
    public static let strategyID = "last-id"
    /// It reads no capacity, so it claims no horizon: one other id in between defeats it.
    public static let guarantee: Guarantee = .missesOnly

    @usableFromInline var _last: EnvelopeID
    @usableFromInline var _holdsID: Bool
    @usableFromInline var _evictions: Int

    /// Builds an empty slot. Every configuration is accepted: the slot reads none of it.
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        _last = EnvelopeID(high: 0, low: 0)
        _holdsID = false
        _evictions = 0
    }
}

extension LastIDSet {
    /// Returns `false` if `id` is the id in the slot; otherwise puts it there (counting the
    /// replaced id as an eviction) and returns `true`. `now` is ignored.
    ///
    /// - Complexity: O(1); allocates nothing.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        if _holdsID {
            if _last == id { return false }
            _evictions &+= 1
        }
        _last = id
        _holdsID = true
        return true
    }

    /// Whether `id` is the id in the slot.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        _holdsID && _last == id
    }

    /// 1 once an id was consumed, else 0.
    @inlinable
    public var count: Int { _holdsID ? 1 : 0 }

    /// The slot's 16 bytes.
    @inlinable
    public var footprint: Int { MemoryLayout<EnvelopeID>.stride }

    @inlinable
    public var evictions: Int { _evictions }
}
