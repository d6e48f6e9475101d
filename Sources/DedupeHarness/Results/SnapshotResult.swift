/// What snapshotting and restoring a consumed set cost in one persisting case (optional in
/// ``CaseResult``). `snapshot` takes one at each relaunch (the state an app saving after every
/// consume has on disk at the kill); `snapshot-on-background` one at each background. Times are
/// from the correctness run, measured around each call; quote them from release builds only.
public struct SnapshotResult: Codable, Sendable, Equatable {
    /// Relaunches in the workload.
    public var relaunches: Int
    /// The largest snapshot written, in bytes.
    public var maximumBytes: Int
    /// The mean snapshot size, in bytes, over the snapshots taken.
    public var meanBytes: Double
    /// Mean nanoseconds to write one snapshot.
    public var meanSnapshotNanoseconds: Double
    /// Mean nanoseconds to restore from one (0 when no relaunch found a snapshot).
    public var meanRestoreNanoseconds: Double

    public init(relaunches: Int, maximumBytes: Int, meanBytes: Double, meanSnapshotNanoseconds: Double, meanRestoreNanoseconds: Double) {
        self.relaunches = relaunches
        self.maximumBytes = maximumBytes
        self.meanBytes = meanBytes
        self.meanSnapshotNanoseconds = meanSnapshotNanoseconds
        self.meanRestoreNanoseconds = meanRestoreNanoseconds
    }
}
