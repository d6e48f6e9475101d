import DedupeBench

/// The team's layer 2 as it ships: `lastHandledID`, one slot. A replay of the envelope just
/// handled is dropped; one of any earlier envelope gets through (a missed duplicate, never a
/// lost navigation).
struct LastHandledIDSet: ConsumedSet {
    static let strategyID = "last-handled-id"
    static let guarantee = Guarantee.missesOnly

    private var lastHandledID: EnvelopeID?

    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {}

    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        guard id != lastHandledID else { return false }
        lastHandledID = id
        return true
    }

    func contains(_ id: EnvelopeID) -> Bool { id == lastHandledID }
    var count: Int { lastHandledID == nil ? 0 : 1 }
    var footprint: Int { MemoryLayout<EnvelopeID?>.size }
    var evictions: Int { 0 }
}
