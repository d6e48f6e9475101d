/// Every strategy of the library, in report order, references first: the one place a strategy
/// is registered. The benchmark's catalogue, its pre-specialized pipelines and every test that
/// runs over all strategies visit this list, so a new strategy is its files plus one line here.
///
/// Each line gives the type, the configuration values it reads, and a one-line summary. A
/// consumed set an SDK ships at fixed constants is registered with them (`pinned`) and an id
/// naming them (`recent-ids-10`); the benchmark runs it at those constants only.
@_spi(Bench) public enum StrategyRegistry {
    /// Visits every window, in report order.
    ///
    /// Inlinable, so the visitor's generic code is specialized for every type in the caller's
    /// module: the benchmark builds its per-event loops from it, and an unspecialized loop would
    /// call each strategy through a witness table per event.
    @inlinable
    public static func visitWindows<V: WindowRegistryVisitor>(_ visitor: inout V) {
        visitor.visit(
            PublishedLiteralWindow.self, reads: [.windowLength, .windowReservation],
            summary: "The published code: String keys, Double seconds, removeAll then contains")
        visitor.visit(
            ArrayScanWindow.self, reads: [.windowLength, .windowReservation],
            summary: "The published algorithm over 64-bit fingerprints and integer time")
        visitor.visit(
            RingBufferWindow.self, reads: [.windowLength, .windowCapacity],
            summary: "Fixed-capacity ring, oldest first; a burst beyond capacity overwrites the oldest live entry")
        visitor.visit(
            HashDequeWindow.self, reads: [.windowLength, .windowReservation],
            summary: "Fingerprint index plus FIFO expiry queue, O(1) amortized")
        visitor.visit(
            EpochSetsWindow.self, reads: [.windowLength, .windowReservation],
            summary: "Two sets of fingerprints, one per half-window epoch, rotated; no per-entry time")
        visitor.visit(
            DirectMappedWindow.self, reads: [.windowLength, .windowCapacity],
            summary: "Power-of-two table, one slot per hash holding the last fingerprint and its time")
    }

    /// Visits every consumed set, in report order: the library's sets, then the SDK patterns at
    /// their shipped constants (`Guides/ConsumedSets.md` § SDK sets). Inlinable for the same
    /// reason as ``visitWindows(_:)``.
    @inlinable
    public static func visitConsumedSets<V: ConsumedSetRegistryVisitor>(_ visitor: inout V) {
        visitor.visit(UnboundedSet.self, reads: [.reservation], summary: "The published code: Swift's Set, grows forever")
        visitor.visit(BoundedLRU.self, reads: [.capacity], summary: "Exact, fixed capacity, least recently used evicted")
        visitor.visit(BloomFilter.self, reads: [.capacity, .falsePositiveRate], summary: "Bloom filter sized for capacity at the target false-positive rate")
        visitor.visit(FIFOSet.self, reads: [.capacity], summary: "Exact, fixed capacity, oldest inserted evicted")
        visitor.visit(RotatingSets.self, reads: [.retention, .reservation], summary: "Two exact generations rotated every retention period")
        visitor.visit(AgingBloomFilter.self, reads: [.retention, .expectedRate, .falsePositiveRate], summary: "Two Bloom generations rotated every retention period")
        visitor.visit(CuckooFilter.self, reads: [.capacity, .falsePositiveRate], summary: "Cuckoo filter of fingerprints, bounded")
        visitor.visit(StableBloomFilter.self, reads: [.capacity, .falsePositiveRate], summary: "Stable Bloom filter: cells decay at random, memory constant")
        visitor.visit(DirectMappedSet.self, reads: [.capacity], summary: "One slot per id hash, a collision overwrites the older id")
        visitor.visit(
            LastIDSet.self, reads: [], summary: "SDK pattern: one last-id slot (OneSignal iOS, Iterable, Leanplum, Expo)",
            pinned: ConsumedSetConfiguration(capacity: 1))
        for capacity in [10, 100] {
            visitor.visit(
                RecentIDs.self, id: "\(RecentIDs.strategyID)-\(capacity)", reads: [.capacity],
                summary: "SDK pattern: FIFO array of the last \(capacity) ids, scanned (Firebase Android and Airship 10, RN Firebase 100)",
                pinned: ConsumedSetConfiguration(capacity: capacity))
        }
        // A `HashMap`'s default 16 buckets, as CleverTap creates it; the map grows from there.
        visitor.visit(
            IDTimeMap.self, reads: [.retention, .reservation],
            summary: "SDK pattern: id → last seen, a repeat within 5 s is a dup, never evicted (CleverTap)",
            pinned: ConsumedSetConfiguration(capacity: 16, retention: .seconds(5)))
    }
}

/// What ``StrategyRegistry/visitWindows(_:)`` calls for each window, with its type concrete.
@_spi(Bench) public protocol WindowRegistryVisitor {
    mutating func visit<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String)
}

/// What ``StrategyRegistry/visitConsumedSets(_:)`` calls for each consumed set, with its type
/// concrete. `id` names an entry of a type registered more than once (else the type's
/// `strategyID`); `pinned` is the configuration an SDK ships it at (else it is sized by the user).
@_spi(Bench) public protocol ConsumedSetRegistryVisitor {
    mutating func visit<C: ConsumedSet>(
        _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?)
}

@_spi(Bench) extension ConsumedSetRegistryVisitor {
    /// A set the user sizes.
    public mutating func visit<C: ConsumedSet>(_ type: C.Type, reads: [ConfigurationParameter], summary: String) {
        visit(type, id: nil, reads: reads, summary: summary, pinned: nil)
    }

    /// A set at an SDK's constants, under its type's id.
    public mutating func visit<C: ConsumedSet>(
        _ type: C.Type, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration
    ) {
        visit(type, id: nil, reads: reads, summary: summary, pinned: pinned)
    }
}
