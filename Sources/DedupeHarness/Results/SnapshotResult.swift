/// What restoring a consumed set at relaunches cost in one `snapshot` case (optional in
/// ``CaseResult``). Times are from the correctness run, measured around each call; quote them
/// from release builds only.
public struct SnapshotResult: Codable, Sendable, Equatable {
    /// Relaunches in the workload, each one snapshot and one restore.
    public var relaunches: Int
    /// The largest snapshot written, in bytes.
    public var maximumBytes: Int
    /// The mean snapshot size, in bytes.
    public var meanBytes: Double
    /// Mean nanoseconds to write one snapshot.
    public var meanSnapshotNanoseconds: Double
    /// Mean nanoseconds to restore from one.
    public var meanRestoreNanoseconds: Double

    public init(relaunches: Int, maximumBytes: Int, meanBytes: Double, meanSnapshotNanoseconds: Double, meanRestoreNanoseconds: Double) {
        self.relaunches = relaunches
        self.maximumBytes = maximumBytes
        self.meanBytes = meanBytes
        self.meanSnapshotNanoseconds = meanSnapshotNanoseconds
        self.meanRestoreNanoseconds = meanRestoreNanoseconds
    }
}
