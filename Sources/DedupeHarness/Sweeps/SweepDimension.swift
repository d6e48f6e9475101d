/// The sweep dimensions the harness emits (``SweepPoint/dimension``), spelled as in the results
/// file, with their units: the one list the sweeps, the CSV, the charts and the results-file
/// check read. Cases are in report order.
public enum SweepDimension: String, Sendable, CaseIterable, Codable {
    /// ns/admit against live fingerprints, every admit a new fingerprint.
    case windowLiveSet = "window-live-set"
    /// ns/admit against live fingerprints, half the admits repeats of a live fingerprint.
    case windowLiveSetRepeats = "window-live-set-50pct-repeats"
    case consumedSetSize = "consumed-set-size"
    case windowLength = "window-length"
    case consumedCapacity = "consumed-capacity"
    case bloomBitsPerEntry = "bloom-bits-per-entry"

    /// The live-set speed dimensions and the share of admits that repeat a live fingerprint in each.
    public static let liveSetRepeatShares: [(dimension: SweepDimension, repeatShare: Double)] = [
        (.windowLiveSet, 0), (.windowLiveSetRepeats, 0.5),
    ]

    /// The unit of a point's `x`.
    public var unit: String {
        switch self {
        case .windowLiveSet, .windowLiveSetRepeats: return "fingerprints"
        case .consumedSetSize, .consumedCapacity: return "ids"
        case .windowLength: return "ms"
        case .bloomBitsPerEntry: return "bits"
        }
    }

    /// A dimension this build does not know is refused by its path (`sweeps[3].dimension`), not
    /// silently left out of every table and chart.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let dimension = SweepDimension(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "is '\(text)', an unknown dimension (expected \(Self.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = dimension
    }
}
