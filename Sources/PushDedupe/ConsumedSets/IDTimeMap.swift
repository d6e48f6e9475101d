/// A map from envelope id to the time it was last seen, never evicted (`id-time-map`): CleverTap's
/// duplicate check.
///
/// The pattern of CleverTap iOS (`CleverTap.m`) and Android (`AnalyticsManager.kt`): a push id
/// seen again within T of its last sighting is a duplicate (T = 5,000 ms for clicks, 2,000 ms for
/// views); either way its time is set to now. The map is never pruned, as shipped, so it holds
/// every id of the session. T is `retention`; `capacity` is only the initial reservation.
///
/// - **Guarantees.** Never a false drop: an id never seen is always accepted. A repeat is missed
///   when it comes more than T after the id's last sighting (inclusive at exactly T, one
///   nanosecond stricter than CleverTap's `<`): by design, a replay a minute later counts as
///   new. Sightings refresh the time, so an id replayed every T or sooner is never accepted
///   again. Ages are measured on the latest time given (time never runs backwards inside the
///   map). `evictions` is always 0.
/// - **Memory.** Grows with the distinct ids of the session, like `set`: per id 16 bytes of id
///   and 8 of time in append-only arrays, plus a `_SlotIndex` of 2–4 `UInt32` lanes, i.e. 32–40
///   bytes per id.
/// - **Allocation.** Amortized: the arrays and the index double when full, as `set`'s table does;
///   nothing otherwise.
///
/// It indexes with the package's `_SlotIndex` (deterministic `_SlotHash`, full-id compares)
/// rather than a `Dictionary`: the answers would be the same, but the index keeps the ids in
/// arrival order, which a snapshot writes as is, and it costs about a third of `Dictionary`'s
/// memory per entry.
///
/// ```swift
/// var consumed = try IDTimeMap(configuration: .init(capacity: 16, retention: .seconds(5)))
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) expected; `consume` is amortized O(1), since
///   a doubling re-indexes every id.
public struct IDTimeMap: ConsumedSet, Sendable {
    public static let strategyID = "id-time-map"
    public static let guarantee: Guarantee = .exactForgetsAfterRetention

    /// T, in nanoseconds: a repeat at most this long after the last sighting is a duplicate.
    @usableFromInline let _window: Int64
    /// Ids in first-sighting order; slot `s` is `_ids[s]`.
    @usableFromInline var _ids: [EnvelopeID]
    /// The latest sighting of `_ids[s]`, in nanoseconds.
    @usableFromInline var _lastSeen: [Int64]
    @usableFromInline var _index: _SlotIndex
    /// The latest time given; `Int64.min` before the first `consume`.
    @usableFromInline var _latest: Int64

    /// Builds an empty map whose duplicates are repeats within `configuration.retention`,
    /// reserving room for `configuration.capacity` ids.
    ///
    /// - Throws: ``ConfigurationError`` when the retention is not positive or the capacity is
    ///   negative or above 2³⁰.
    /// - Complexity: O(`capacity`).
    public init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        let window = try Self._positiveRetention(configuration)
        let reservation = try Self._indexedCapacity(configuration)
        _window = window
        _ids = []
        _ids.reserveCapacity(reservation)
        _lastSeen = []
        _lastSeen.reserveCapacity(reservation)
        _index = _SlotIndex(slotCapacity: reservation)
        _latest = .min
    }
}

extension IDTimeMap {
    /// Returns `false` if `id` was last seen at most T before `now` (clamped to the latest time
    /// given), `true` otherwise; records `now` as its last sighting either way.
    ///
    /// - Complexity: amortized O(1); allocates only when the map doubles.
    @inlinable @inline(__always)
    public mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        let time = Swift.max(now.nanoseconds, _latest)
        _latest = time
        let hash = _SlotHash(id)
        let slot = _index.find(id, hash: hash, keys: _ids)
        if slot >= 0 {
            let duplicate = _lastSeen.withUnsafeMutableBufferPointer { lastSeen in
                let duplicate = lastSeen[slot] >= Self._horizon(time, window: _window)
                lastSeen[slot] = time
                return duplicate
            }
            return !duplicate
        }
        let newSlot = _ids.count
        if newSlot == _index.slotCapacity { _grow() }
        _ids.append(id)
        _lastSeen.append(time)
        _index.insert(slot: newSlot, hash: hash)
        return true
    }

    /// Whether `id` was last seen at most T before the latest time given.
    ///
    /// - Complexity: O(1) expected.
    @inlinable
    public func contains(_ id: EnvelopeID) -> Bool {
        let slot = _index.find(id, hash: _SlotHash(id), keys: _ids)
        return slot >= 0 && _lastSeen[slot] >= Self._horizon(_latest, window: _window)
    }

    /// Every id seen this session: the map forgets nothing.
    @inlinable
    public var count: Int { _ids.count }

    /// The reserved ids and times, plus the index's lanes.
    @inlinable
    public var footprint: Int {
        _index.slotCapacity * (MemoryLayout<EnvelopeID>.stride + MemoryLayout<Int64>.stride) + _index.footprint
    }

    /// Always 0: the map never drops an id.
    @inlinable
    public var evictions: Int { 0 }

    /// The earliest last sighting that still makes a repeat at `time` a duplicate.
    @inlinable @inline(__always)
    static func _horizon(_ time: Int64, window: Int64) -> Int64 {
        let (horizon, overflow) = time.subtractingReportingOverflow(window)
        return overflow ? .min : horizon
    }

    /// Doubles the reservation and re-indexes every id: the only allocation after warm-up.
    @usableFromInline
    mutating func _grow() {
        let reservation = Swift.min(_SlotIndex.maximumSlotCapacity, Swift.max(8, 2 * _index.slotCapacity))
        precondition(reservation > _ids.count, "id-time-map cannot hold more than 2^30 ids")
        _ids.reserveCapacity(reservation)
        _lastSeen.reserveCapacity(reservation)
        _index = _SlotIndex(slotCapacity: reservation)
        for (slot, id) in _ids.enumerated() {
            _index.insert(slot: slot, hash: _SlotHash(id))
        }
    }
}
