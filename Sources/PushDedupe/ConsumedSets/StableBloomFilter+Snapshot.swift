extension StableBloomFilter: SnapshottableConsumedSet {
    /// The geometry, the acceptance count, the decrement generator's state and the cells, word
    /// for word.
    ///
    /// - Complexity: O(m/21).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 8 * cells.count + 48)
        writer.write(cellCount, hashCount, decrementCount, accepted, random.state)
        writer.write(words: cells)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores the cells into a filter of `configuration`, which must give the same geometry.
    ///
    /// - Complexity: O(m/21).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let (cellCount, hashCount, decrementCount, accepted, state): (Int, Int, Int, Int, UInt64) = try reader.read()
        self = try Self._empty(configuration)
        guard cellCount == self.cellCount, hashCount == self.hashCount, decrementCount == self.decrementCount else {
            throw .incompatible(
                "snapshot has \(cellCount) cells, K \(hashCount), P \(decrementCount); this configuration gives "
                    + "\(self.cellCount), K \(self.hashCount), P \(self.decrementCount)")
        }
        let cells = try reader.readWords(expectedCount: self.cells.count, field: "the cells")
        try reader.finish()
        var nonzero = 0
        for word in cells {
            guard word >> 63 == 0 else { throw .malformed("a cell word has its spare top bit set") }
            for slot in 0..<Self.cellsPerWord where (word >> UInt64(slot * Self.bitsPerCell)) & 7 != 0 { nonzero += 1 }
        }
        self.cells = cells
        nonzeroCells = nonzero
        self.accepted = accepted
        random.state = state
    }
}
