/// Insertion by kick chains, undone when they run out so that no resident is ever lost.
extension CuckooFilter {
    /// Stores `fingerprint` in one of its buckets, kicking residents along if needed; on failure
    /// undoes every kick and returns `false` with the table as it was.
    @inlinable
    mutating func _place(_ fingerprint: UInt64, _ first: Int, _ second: Int) -> Bool {
        if _insertIfRoom(fingerprint, in: first) || _insertIfRoom(fingerprint, in: second) { return true }
        var homeless = fingerprint
        var index = _random.next() & 1 == 0 ? first : second
        for kick in 0..<Self.maximumKicks {
            let victimSlot = Int(truncatingIfNeeded: _random.next() & 3)
            homeless = _exchange(homeless, slot: victimSlot, in: index)
            _kickLog[kick] = UInt64(truncatingIfNeeded: index) &<< 2 | UInt64(truncatingIfNeeded: victimSlot)
            index = _alternate(index, homeless)
            if _insertIfRoom(homeless, in: index) { return true }
        }
        // Swapping back in reverse order restores every resident and leaves the new one homeless.
        for kick in (0..<Self.maximumKicks).reversed() {
            let entry = _kickLog[kick]
            homeless = _exchange(homeless, slot: Int(truncatingIfNeeded: entry & 3), in: Int(truncatingIfNeeded: entry &>> 2))
        }
        return false
    }
}
