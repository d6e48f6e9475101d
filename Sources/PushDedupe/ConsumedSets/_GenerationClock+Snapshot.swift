extension _GenerationClock {
    /// This clock as a snapshot left it, for the two-generation sets (`aging-bloom`,
    /// `rotating-sets`), which restore it alike: the retention must be this clock's (the
    /// generations are cut by it), and a started clock's latest time must lie inside the
    /// `generation` (the set's word for one) that begins at `start`.
    func _restored(
        period: some BinaryInteger, started: Bool, start: Int64, latest: Int64, generation: String
    ) throws(SnapshotError) -> _GenerationClock {
        guard period == self.period else {
            throw .incompatible("snapshot retention is \(period) ns, the configuration's \(self.period) ns")
        }
        guard started else { return self }
        guard admits(start: start, latest: latest) else {
            throw .malformed("latest time \(latest) lies outside the \(generation) starting at \(start)")
        }
        var restored = self
        restored.started = true
        restored.start = start
        restored.latest = latest
        return restored
    }
}
