/// An exact set of the last `capacity` distinct envelope ids, forgotten in insertion order.
///
/// The ids sit in a ring. An index of `UInt32` lanes finds them: a lane holds a tag from the id's
/// hash and the id's *sequence number* (its insertion count, modulo a power of two), not its
/// slot. The age that number gives says both where the id is (the id accepted k accepts ago sits
/// k slots before `next`) and whether it is still retained (k ≤ `count`). So overwriting the
/// oldest slot needs no index work at all: its lane just reads as not retained from then on, and
/// a later insertion may reuse it. An accepting `consume` touches one lane group and one ring
/// slot; a hit changes nothing (no move-on-hit).
///
/// Lanes come in groups of eight (32 bytes): seven entries and a control lane. An id probes only
/// its home group unless, while some id now retained was inserted, the group was full: the
/// control lane keeps the sequence number of the newest id that overflowed past the group, and
/// lookups go on to the next group only while that id is retained. Every accepting `consume`
/// also restamps the lane under a cursor if it is not retained, so that no sequence number grows
/// old enough to wrap around and read as retained again.
///
/// This is the bounded set dedupe needs: a replay arrives within a few lifecycle callbacks of
/// the first emission, so refreshing recency on a hit, as `BoundedLRU` does, buys nothing but
/// link writes on every hit.
///
/// - **Guarantees.** Never a false drop. A repeat is missed only after `capacity` newer distinct
///   ids have been accepted since the id was first accepted. Capacity 0 retains nothing and
///   counts every accepted id as an eviction.
/// - **Memory.** Fixed at construction: 16 bytes per ring slot plus one 32-byte lane group per
///   four slots, rounded up to a power of two: 24 bytes per entry when `capacity` is a power of
///   two of at least 4.
/// - **Allocation.** None after `init`.
///
/// ```swift
/// var consumed = try FIFOSet(configuration: .init(capacity: 4_096))
/// ```
///
/// - Complexity: `consume` and `contains` are O(1) expected.
///
/// `@unchecked Sendable`: the only non-`Sendable` member, `_RingStorage`, is a class holding raw
/// pointers. It is copy-on-write: every write goes through `_withMutableStorage`, which copies
/// the storage unless `isKnownUniquelyReferenced` (an atomic reference-count read) says no other
/// copy shares it, so a storage object reachable from two copies, on any threads, is only read.
public struct FIFOSet: ConsumedSet, _CountedEntries, @unchecked Sendable {
    public static let strategyID = "fifo-set"
    public static let guarantee: Guarantee = .exactForgetsOldest

    /// Seven entry lanes and one control lane per group (`_LaneGroup`).
    @inlinable static var lanesPerGroup: Int { _LaneGroup.lanes }
    @inlinable static var entryLanes: Int { _LaneGroup.entryLanes }
    /// Set in every entry's tag, so that an entry never looks like a vacant lane (tag zero).
    @inlinable static var tagBit: UInt32 { 1 << 31 }

    /// The sizes fixed at construction (`_AgeRing`, the lane table under liveness by age).
    @usableFromInline typealias _Geometry = _AgeRing

    @usableFromInline let _geometry: _Geometry
    /// The ring and the lanes, copied on write. Ring: `capacity` ids; slots `0..<_count` hold
    /// ids, and once full, `_next` is the oldest. Lanes: `groups · 8` `UInt32`, each a sequence
    /// number below a tag. Entry lane: `tag | sequence`, or a vacant stamp (tag zero, an old
    /// sequence). Control lane (lane 7): the sequence number of the newest id that overflowed
    /// past the group, or a vacant stamp. One allocation of exactly their size, not one array,
    /// whose 32-byte header pushes 1.5 MiB (64K slots) into jemalloc's 1.75 MiB size class.
    @usableFromInline var _storage: _RingStorage
    /// The number of accepted ids, modulo 2³²; its low bits are the next sequence number.
    @usableFromInline var _accepted: UInt32
    /// The lane the cursor restamps next.
    @usableFromInline var _sweepLane: Int
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
        let capacity = try Self._indexedCapacity(configuration)
        self.init(geometry: _Geometry(capacity: capacity))
    }

    /// An empty set of the given sizes.
    init(geometry: _Geometry) {
        _geometry = geometry
        _storage = _RingStorage(
            capacity: geometry.capacity, laneCount: geometry.laneMask + 1, element: EnvelopeID(high: 0, low: 0),
            vacantLane: geometry.vacantStamp(sequence: 0))
        _accepted = 0
        _sweepLane = 0
        _next = 0
        _count = 0
        _evictions = 0
    }
}

extension FIFOSet {
    /// Calls `body` with the lanes and the ring, to read.
    @inlinable @inline(__always)
    func _withStorage<R>(_ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<EnvelopeID>) -> R) -> R {
        _storage.withBuffers(of: EnvelopeID.self, body)
    }

    /// Calls `body` with the lanes and the ring, writable, copying them first if this set shares
    /// them with a copy of itself.
    @inlinable @inline(__always)
    mutating func _withMutableStorage<R>(
        _ body: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<EnvelopeID>) -> R
    ) -> R {
        _RingStorage.withUniqueBuffers(&_storage, of: EnvelopeID.self, body)
    }

    /// A copy of the lanes, for tests and invariant checks.
    var _lanes: [UInt32] { _withStorage { lanes, _ in Array(lanes) } }
}
