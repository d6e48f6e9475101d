extension BloomFilter: SnapshottableConsumedSet {
    /// The size, the insertion count and the bit array, word for word.
    ///
    /// - Complexity: O(m/64).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 8 * bits.words.count + 32)
        writer.write(geometryOf: bits)
        writer.write(count: insertions)
        writer.write(words: bits.words)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores the bit array into a filter of `configuration`, which must size it the same.
    ///
    /// - Complexity: O(m/64).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let geometry = try reader.readBloomGeometry()
        let insertions = try reader.readInteger()
        self = try Self._empty(configuration)
        try bits._checkGeometry(geometry, field: "the bit array")
        let words = try reader.readWords(expectedCount: bits.words.count, field: "the bit array")
        try reader.finish()
        bits._restore(words: words)
        self.insertions = insertions
    }
}
