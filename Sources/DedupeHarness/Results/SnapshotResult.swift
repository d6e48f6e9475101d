/// What snapshotting and restoring a consumed set cost in one persisting case (optional in
/// ``CaseResult``). `after-every-consume` takes one at each relaunch (the state an app saving after every
/// consume has on disk at the kill); `on-background` one at each background. Times are
/// from the correctness run, measured around each call; quote them from release builds only.
package struct SnapshotResult: Codable, Sendable, Equatable {
    /// Relaunches in the workload.
    package var relaunches: Int
    /// The largest snapshot written, in bytes.
    package var maximumBytes: Int
    /// The mean snapshot size, in bytes, over the snapshots taken.
    package var meanBytes: Double
    /// Mean nanoseconds to write one snapshot.
    package var meanSnapshotNanoseconds: Double
    /// Mean nanoseconds to restore from one (0 when no relaunch found a snapshot).
    package var meanRestoreNanoseconds: Double
    /// The events the case ran on when its snapshots passed the bytes a case may write (256 MiB):
    /// it stopped at that save point, the workload's first `eventsRun` events were scored, and it
    /// is not ranked against cases that ran them all. `nil` when it ran the whole workload.
    package var eventsRun: Int?

    /// The bound on the bytes a persisting case writes in snapshots over one run, in MiB.
    package static var savedMebibytesBound: Int { _RelaunchState.defaultSavedBytesBound >> 20 }

    /// One line: where case `id` stopped on a workload of `workloadEvents` events, and why.
    package func prefixNote(case id: String, workloadEvents: Int) -> String? {
        guard let eventsRun else { return nil }
        return "\(id): its snapshots passed \(Self.savedMebibytesBound) MiB written at event "
            + "\(ReferenceWindowLimit.grouped(eventsRun + 1)) of \(ReferenceWindowLimit.grouped(workloadEvents)) (the set is "
            + "saved whole at every save point); it was scored on the first \(ReferenceWindowLimit.grouped(eventsRun)) events "
            + "and is not ranked against the cases that ran them all"
    }
}
