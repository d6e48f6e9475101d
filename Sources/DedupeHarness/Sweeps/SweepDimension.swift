/// The sweep dimensions the harness emits (``SweepPoint/dimension``), with their units: the one
/// list the sweeps, the CSV, the charts and the results-file check read.
public enum SweepDimension {
    public static let windowLiveSet = "window-live-set"
    public static let consumedSetSize = "consumed-set-size"
    public static let windowLength = "window-length"
    public static let consumedCapacity = "consumed-capacity"
    public static let bloomBitsPerEntry = "bloom-bits-per-entry"
    /// Every dimension, in report order; a results file with another is refused.
    public static let all = [windowLiveSet, consumedSetSize, windowLength, consumedCapacity, bloomBitsPerEntry]

    /// The unit of `x` for `dimension`.
    public static func unit(of dimension: String) -> String {
        switch dimension {
        case windowLiveSet: return "fingerprints"
        case consumedSetSize, consumedCapacity: return "ids"
        case windowLength: return "ms"
        case bloomBitsPerEntry: return "bits"
        default: return ""
        }
    }
}
