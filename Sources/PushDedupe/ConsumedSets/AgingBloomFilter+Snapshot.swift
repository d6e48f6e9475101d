extension AgingBloomFilter: SnapshottableConsumedSet {
    /// The size, the generation clock, each generation's insertion count and bit array.
    ///
    /// - Complexity: O(m/64).
    public func snapshot() -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: 16 * current.words.count + 48)
        writer.write(current.bitCount, current.hashCount)
        writer.write(time: Int64(clock.period))
        writer.write(stateOf: clock, latestIfUnstarted: .min)
        writer.write(currentInsertions, previousInsertions)
        writer.write(words: current.words)
        writer.write(words: previous.words)
        return writer.finished(strategyID: Self.strategyID)
    }

    /// Restores both generations and the clock into a filter of `configuration`, which must
    /// size them the same and have the same retention.
    ///
    /// - Complexity: O(m/64).
    public init(snapshot: [UInt8], configuration: ConsumedSetConfiguration) throws(SnapshotError) {
        var reader = try _SnapshotReader(snapshot, strategyID: Self.strategyID)
        let (bitCount, hashCount): (Int, Int) = try reader.read()
        let length = try reader.readTime()
        let clockState = try reader.readClockState()
        let (currentInsertions, previousInsertions): (Int, Int) = try reader.read()
        self = try Self._empty(configuration)
        try current._checkGeometry(bitCount: bitCount, hashCount: hashCount, field: "each generation")
        let restoredClock = try clock._restored(period: length, state: clockState, generation: "generation")
        let currentWords = try reader.readWords(expectedCount: current.words.count, field: "the current generation")
        let previousWords = try reader.readWords(expectedCount: previous.words.count, field: "the previous generation")
        try reader.finish()
        current._restore(words: currentWords)
        previous._restore(words: previousWords)
        self.currentInsertions = currentInsertions
        self.previousInsertions = previousInsertions
        clock = restoredClock
    }
}
