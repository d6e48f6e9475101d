extension _GenerationClock {
    /// This clock as a snapshot left it, for the two-generation sets (`aging-bloom`,
    /// `rotating-sets`), which restore it alike: the retention must be this clock's (the
    /// generations are cut by it), and a started clock's latest time must lie inside the
    /// `generation` (the set's word for one) that begins at `start`.
    func _restored(
        period: some BinaryInteger, state: _StoredClockState, generation: String
    ) throws(SnapshotError) -> _GenerationClock {
        guard period == self.period else {
            throw .incompatible("snapshot retention is \(period) ns, the configuration's \(self.period) ns")
        }
        guard state.started else { return self }
        guard admits(start: state.start, latest: state.latest) else {
            throw .malformed("latest time \(state.latest) lies outside the \(generation) starting at \(state.start)")
        }
        var restored = self
        restored.started = true
        restored.start = state.start
        restored.latest = state.latest
        return restored
    }
}

/// A generation clock's state as a snapshot stores it, after the period (which each set's format
/// spells its own way).
typealias _StoredClockState = (started: Bool, start: Int64, latest: Int64)

extension _SnapshotWriter {
    /// Whether `clock` started, its generation's start, and its latest time, or
    /// `latestIfUnstarted` for a clock never started (each set's format fixed its own).
    mutating func write(stateOf clock: _GenerationClock, latestIfUnstarted: Int64) {
        write(clock.started, clock.start, clock.started ? clock.latest : latestIfUnstarted)
    }
}

extension _SnapshotReader {
    /// What `write(stateOf:latestIfUnstarted:)` wrote.
    mutating func readClockState() throws(SnapshotError) -> _StoredClockState {
        let (started, start, latest): (Bool, Int64, Int64) = try read()
        return (started, start, latest)
    }
}
