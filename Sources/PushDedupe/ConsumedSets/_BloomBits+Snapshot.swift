extension _BloomBits {
    /// Replaces the bits with `words` (as many as this array has), recounting the set bits and
    /// rebuilding the dirty-word log from the non-zero words.
    mutating func _restore(words restored: [UInt64]) {
        precondition(restored.count == words.count, "callers check the word count")
        words = restored
        setBits = restored.reduce(0) { $0 + $1.nonzeroBitCount }
        guard !dirtyLog.isEmpty else { return }
        dirtyWords = 0
        for (index, word) in restored.enumerated() where word != 0 {
            if dirtyWords < dirtyLog.count { dirtyLog[dirtyWords] = Int32(truncatingIfNeeded: index) }
            dirtyWords += 1
        }
    }

    /// Throws unless a snapshot's geometry, as `readBloomGeometry` read it, is this array's.
    func _checkGeometry(_ stored: _BloomGeometry, field: String) throws(SnapshotError) {
        guard stored.bitCount == bitCount, stored.hashCount == hashCount else {
            throw .incompatible(
                "\(field) was \(stored.bitCount) bits with \(stored.hashCount) probes; this configuration gives "
                    + "\(bitCount) bits with \(hashCount)")
        }
    }
}

/// A bit array's size as the Bloom filters' snapshots store it.
typealias _BloomGeometry = (bitCount: Int, hashCount: Int)

extension _SnapshotWriter {
    /// The bit count, then the probe count.
    mutating func write(geometryOf bits: _BloomBits) {
        write(count: bits.bitCount)
        write(count: bits.hashCount)
    }
}

extension _SnapshotReader {
    /// What `write(geometryOf:)` wrote.
    mutating func readBloomGeometry() throws(SnapshotError) -> _BloomGeometry {
        (bitCount: try readInteger(), hashCount: try readInteger())
    }
}
