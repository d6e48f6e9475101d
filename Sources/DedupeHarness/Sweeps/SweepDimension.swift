import DedupeWorkloads

/// The sweep dimensions the harness emits (``SweepPoint/dimension``), spelled as in the results
/// file, with their units: the one list the sweeps, the CSV, the charts and the results-file
/// check read. Cases are in report order.
package enum SweepDimension: String, Sendable, Codable, ClosedVocabulary {
    /// ns/admit against live fingerprints, every admit a new fingerprint.
    case windowLiveSet = "window-live-set"
    /// ns/admit against live fingerprints, half the admits repeats of a live fingerprint.
    case windowLiveSetRepeats = "window-live-set-50pct-repeats"
    case consumedSetSize = "consumed-set-size"
    case windowLength = "window-length"
    case consumedCapacity = "consumed-capacity"
    case bloomBitsPerEntry = "bloom-bits-per-entry"

    /// The live-set speed dimensions and the share of admits that repeat a live fingerprint in each.
    package static let liveSetRepeatShares: [(dimension: SweepDimension, repeatShare: Double)] = [
        (.windowLiveSet, 0), (.windowLiveSetRepeats, 0.5),
    ]

    /// The unit of a point's `x`.
    package var unit: String {
        switch self {
        case .windowLiveSet, .windowLiveSetRepeats: return "fingerprints"
        case .consumedSetSize, .consumedCapacity: return "ids"
        case .windowLength: return "ms"
        case .bloomBitsPerEntry: return "bits"
        }
    }

    package static let vocabularyName = "dimension"
}
