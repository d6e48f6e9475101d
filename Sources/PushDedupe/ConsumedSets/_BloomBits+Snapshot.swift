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

    /// Throws unless a snapshot's `bitCount` and `hashCount` are this array's.
    func _checkGeometry(bitCount: Int, hashCount: Int, field: String) throws(SnapshotError) {
        guard bitCount == self.bitCount, hashCount == self.hashCount else {
            throw .incompatible(
                "\(field) was \(bitCount) bits with \(hashCount) probes; this configuration gives "
                    + "\(self.bitCount) bits with \(self.hashCount)")
        }
    }
}
