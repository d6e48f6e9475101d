import PushDedupe

extension StrategyCatalogue {
    /// Every strategy of the `PushDedupe` library, in report order, references first. A window is
    /// one line below; a consumed set is one line in `_StandardConsumedSets`.
    public static let standard = StrategyCatalogue(
        // A window is one registration below; its guarantee comes from its type, the parameters it
        // reads are declared here.
        windows: [
            WindowEntry(
                SeedLiteralWindow.self, reads: [.windowLength, .windowReservation],
                summary: "The published code: String keys, Double seconds, removeAll then contains",
                pairedWith: _StandardConsumedSets.self),
            WindowEntry(
                ArrayScanWindow.self, reads: [.windowLength, .windowReservation],
                summary: "The published algorithm over 64-bit fingerprints and integer time",
                pairedWith: _StandardConsumedSets.self),
            WindowEntry(
                RingBufferWindow.self, reads: [.windowLength, .windowCapacity],
                summary: "Fixed-capacity ring, oldest first; a burst beyond capacity overwrites the oldest live entry",
                pairedWith: _StandardConsumedSets.self),
            WindowEntry(
                HashDequeWindow.self, reads: [.windowLength, .windowReservation],
                summary: "Fingerprint index plus FIFO expiry queue, O(1) amortized",
                pairedWith: _StandardConsumedSets.self),
            WindowEntry(
                EpochSetsWindow.self, reads: [.windowLength, .windowReservation],
                summary: "Two sets of fingerprints, one per half-window epoch, rotated; no per-entry time",
                pairedWith: _StandardConsumedSets.self),
            WindowEntry(
                DirectMappedWindow.self, reads: [.windowLength, .windowCapacity],
                summary: "Power-of-two table, one slot per hash holding the last fingerprint and its time",
                pairedWith: _StandardConsumedSets.self),
        ],
        consumedSets: _StandardConsumedSets.entries)
}

/// The library's consumed sets, one line each; every one is sized from the device profile.
enum _StandardConsumedSets: _ConsumedSetList {
    static func visit<V: _ConsumedSetVisitor>(_ visitor: inout V) {
        visitor.visit(UnboundedSet.self, reads: [.reservation], summary: "The published code: Swift's Set, grows forever")
        visitor.visit(BoundedLRU.self, reads: [.capacity], summary: "Exact, fixed capacity, least recently used evicted")
        visitor.visit(BloomFilter.self, reads: [.capacity, .falsePositiveRate], summary: "Bloom filter sized for capacity at the target false-positive rate")
        visitor.visit(FIFOSet.self, reads: [.capacity], summary: "Exact, fixed capacity, oldest inserted evicted")
        visitor.visit(RotatingSets.self, reads: [.retention, .reservation], summary: "Two exact generations rotated every retention period")
        visitor.visit(AgingBloomFilter.self, reads: [.retention, .expectedRate, .falsePositiveRate], summary: "Two Bloom generations rotated every retention period")
        visitor.visit(CuckooFilter.self, reads: [.capacity, .falsePositiveRate], summary: "Cuckoo filter of fingerprints, bounded")
        visitor.visit(StableBloomFilter.self, reads: [.capacity, .falsePositiveRate], summary: "Stable Bloom filter: cells decay at random, memory constant")
        visitor.visit(DirectMappedSet.self, reads: [.capacity], summary: "One slot per id hash, a collision overwrites the older id")
        _SDKConsumedSets.visit(&visitor)
    }

    static var entries: [ConsumedSetEntry] {
        var collector = _EntryCollector()
        visit(&collector)
        return collector.entries
    }
}
