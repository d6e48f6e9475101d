import PushDedupe

/// A window that admits everything and stores nothing: the stand-in for the layer a mode does
/// not use, and half of the no-op case that measures the harness's own overhead.
struct _NoOpWindow: FingerprintWindow {
    static let strategyID = "no-op"
    static let guarantee: Guarantee = .missesOnly
    let window: Duration
    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        window = configuration.window
    }

    @inline(__always)
    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool { true }

    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}

/// A consumed set that accepts everything and stores nothing: see ``_NoOpWindow``.
struct _NoOpConsumedSet: ConsumedSet {
    static let strategyID = "no-op"
    static let guarantee: Guarantee = .missesOnly
    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {}

    @inline(__always)
    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool { true }

    func contains(_ id: EnvelopeID) -> Bool { false }
    var count: Int { 0 }
    var footprint: Int { 0 }
    var evictions: Int { 0 }
}
