/// The sweep dimensions the harness emits (``SweepPoint/dimension``), with their units: the one
/// list the sweeps, the CSV, the charts and the results-file check read.
public enum SweepDimension {
    /// ns/admit against live fingerprints, every admit a new fingerprint.
    public static let windowLiveSet = "window-live-set"
    /// ns/admit against live fingerprints, half the admits repeats of a live fingerprint.
    public static let windowLiveSetRepeats = "window-live-set-50pct-repeats"
    public static let consumedSetSize = "consumed-set-size"
    public static let windowLength = "window-length"
    public static let consumedCapacity = "consumed-capacity"
    public static let bloomBitsPerEntry = "bloom-bits-per-entry"
    /// Every dimension, in report order; a results file with another is refused.
    public static let all = [windowLiveSet, windowLiveSetRepeats, consumedSetSize, windowLength, consumedCapacity, bloomBitsPerEntry]

    /// The live-set speed dimensions and the share of admits that repeat a live fingerprint in each.
    public static let liveSetRepeatShares: [(dimension: String, repeatShare: Double)] = [
        (windowLiveSet, 0), (windowLiveSetRepeats, 0.5),
    ]

    /// The unit of `x` for `dimension`.
    public static func unit(of dimension: String) -> String {
        switch dimension {
        case windowLiveSet, windowLiveSetRepeats: return "fingerprints"
        case consumedSetSize, consumedCapacity: return "ids"
        case windowLength: return "ms"
        case bloomBitsPerEntry: return "bits"
        default: return ""
        }
    }
}
