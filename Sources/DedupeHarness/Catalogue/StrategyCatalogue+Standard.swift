import PushDedupe

extension StrategyCatalogue {
    /// Every strategy of the `PushDedupe` library, in report order, references first. A window is
    /// one line below; a consumed set is one line in `_StandardConsumedSets`.
    public static let standard = StrategyCatalogue(
        windows: [
            WindowEntry(SeedLiteralWindow.self, summary: "The published code: String keys, Double seconds, removeAll then contains", pairedWith: _StandardConsumedSets.self),
            WindowEntry(ArrayScanWindow.self, summary: "The published algorithm over 64-bit fingerprints and integer time", pairedWith: _StandardConsumedSets.self),
            WindowEntry(RingBufferWindow.self, summary: "Fixed-capacity ring, oldest first; a burst beyond capacity overwrites the oldest live entry", pairedWith: _StandardConsumedSets.self),
            WindowEntry(HashDequeWindow.self, summary: "Fingerprint index plus FIFO expiry queue, O(1) amortized", pairedWith: _StandardConsumedSets.self),
            WindowEntry(EpochSetsWindow.self, summary: "Two sets of fingerprints, one per half-window epoch, rotated; no per-entry time", pairedWith: _StandardConsumedSets.self),
            WindowEntry(DirectMappedWindow.self, summary: "Power-of-two table, one slot per hash holding the last fingerprint and its time", pairedWith: _StandardConsumedSets.self),
        ],
        consumedSets: _StandardConsumedSets.entries)
}

/// The library's consumed sets, one line each.
enum _StandardConsumedSets: _ConsumedSetList {
    static func visit<V: _ConsumedSetVisitor>(_ visitor: inout V) {
        let defaults = ConsumedSetConfiguration()
        visitor.visit(UnboundedSet.self, summary: "The published code: Swift's Set, grows forever", configuration: defaults)
        visitor.visit(BoundedLRU.self, summary: "Exact, fixed capacity, least recently used evicted", configuration: defaults)
        visitor.visit(BloomFilter.self, summary: "Bloom filter sized for capacity at the target false-positive rate", configuration: defaults)
        visitor.visit(FIFOSet.self, summary: "Exact, fixed capacity, oldest inserted evicted", configuration: defaults)
        visitor.visit(RotatingSets.self, summary: "Two exact generations rotated every retention period", configuration: defaults)
        visitor.visit(AgingBloomFilter.self, summary: "Two Bloom generations rotated every retention period", configuration: defaults)
        visitor.visit(CuckooFilter.self, summary: "Cuckoo filter of fingerprints, bounded", configuration: defaults)
        visitor.visit(StableBloomFilter.self, summary: "Stable Bloom filter: cells decay at random, memory constant", configuration: defaults)
        visitor.visit(DirectMappedSet.self, summary: "One slot per id hash, a collision overwrites the older id", configuration: defaults)
        _SDKConsumedSets.visit(&visitor)
    }

    static var entries: [ConsumedSetEntry] {
        var collector = _EntryCollector()
        visit(&collector)
        return collector.entries
    }
}
