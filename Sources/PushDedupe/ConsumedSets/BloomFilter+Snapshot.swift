extension BloomFilter: SnapshottableConsumedSet {
    /// The size, the insertion count and the bit array, word for word.
    ///
    /// - Complexity: O(m/64).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 8 * bits.words.count + 32)
        writer.write(bits.bitCount, bits.hashCount, insertions)
        writer.write(words: bits.words)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores the bit array into a filter of `configuration`, which must size it the same.
    ///
    /// - Complexity: O(m/64).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let (bitCount, hashCount, insertions): (Int, Int, Int) = try reader.read()
        self = try Self._empty(configuration)
        try bits._checkGeometry(bitCount: bitCount, hashCount: hashCount, field: "the bit array")
        let words = try reader.readWords(expectedCount: bits.words.count, field: "the bit array")
        try reader.finish()
        bits._restore(words: words)
        self.insertions = insertions
    }
}
