@testable import DedupeHarness
import PushDedupe

/// Test-local strategies with behaviour simple enough to compute traces by hand. Two of them
/// borrow the reference ids (`published-literal`, `set`) so the runner finds its reference rows.

/// An exact window: a dictionary from fingerprint to the time it was last admitted.
struct ToyExactWindow: FingerprintWindow {
    static let strategyID = "published-literal"
    static let guarantee: Guarantee = .exact
    let window: Duration
    private var seen: [UInt64: Int64] = [:]
    private var latest = Int64.min

    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        guard configuration.window >= .zero else {
            throw ConfigurationError(strategy: Self.strategyID, parameter: "window", reason: "negative")
        }
        window = configuration.window
    }

    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        latest = max(latest, now.nanoseconds)
        if let seenAt = seen[fingerprint.rawValue], latest - seenAt <= window.wholeNanoseconds { return false }
        seen[fingerprint.rawValue] = latest
        return true
    }

    var count: Int { seen.count }
    var footprint: Int { seen.capacity * 16 }
    var evictions: Int { 0 }
}

/// A window of at most `capacity` entries, dropping the oldest when full (an eviction if live).
struct ToyTinyWindow: FingerprintWindow {
    static let strategyID = "tiny-window"
    static let guarantee: Guarantee = .exactForgetsOldest
    let window: Duration
    let capacity: Int
    private var entries: [(fingerprint: UInt64, time: Int64)] = []
    private(set) var evictions = 0

    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        window = configuration.window
        capacity = configuration.capacity
    }

    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        entries.removeAll { now.nanoseconds - $0.time > window.wholeNanoseconds }
        if entries.contains(where: { $0.fingerprint == fingerprint.rawValue }) { return false }
        if entries.count >= capacity, !entries.isEmpty {
            entries.removeFirst()
            evictions += 1
        }
        if capacity > 0 { entries.append((fingerprint.rawValue, now.nanoseconds)) }
        return true
    }

    var count: Int { entries.count }
    var footprint: Int { capacity * 16 }
}

/// An exact, unbounded consumed set.
struct ToyExactSet: ConsumedSet {
    static let strategyID = "set"
    static let guarantee: Guarantee = .exact
    private var ids: Set<EnvelopeID> = []

    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {}

    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool { ids.insert(id).inserted }
    func contains(_ id: EnvelopeID) -> Bool { ids.contains(id) }
    var count: Int { ids.count }
    var footprint: Int { ids.capacity * 16 }
    var evictions: Int { 0 }
}

/// A consumed set of at most `capacity` ids, forgetting the oldest first.
struct ToyFIFOSet: ConsumedSet {
    static let strategyID = "tiny-fifo"
    static let guarantee: Guarantee = .exactForgetsOldest
    let capacity: Int
    private var order: [EnvelopeID] = []
    private(set) var evictions = 0

    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {
        guard configuration.capacity >= 0 else {
            throw ConfigurationError(strategy: Self.strategyID, parameter: "capacity", reason: "negative")
        }
        capacity = configuration.capacity
    }

    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        if order.contains(id) { return false }
        if order.count >= capacity, !order.isEmpty {
            order.removeFirst()
            evictions += 1
        }
        if capacity > 0 { order.append(id) }
        return true
    }

    func contains(_ id: EnvelopeID) -> Bool { order.contains(id) }
    var count: Int { order.count }
    var footprint: Int { capacity * 16 }
}

/// A one-hash bit filter of 64 bits: its theory is the fraction of bits set.
struct ToyFilter: ProbabilisticConsumedSet {
    static let strategyID = "toy-filter"
    static let guarantee: Guarantee = .mayDrop(forgetting: .never)
    private var bits: UInt64 = 0
    private(set) var count = 0

    init(configuration: ConsumedSetConfiguration) throws(ConfigurationError) {}

    mutating func consume(_ id: EnvelopeID, at now: Timestamp) -> Bool {
        let bit: UInt64 = 1 << (id.hash64 % 64)
        defer { bits |= bit }
        if bits & bit != 0 { return false }
        count += 1
        return true
    }

    func contains(_ id: EnvelopeID) -> Bool { bits & (1 << (id.hash64 % 64)) != 0 }
    var footprint: Int { 8 }
    var evictions: Int { 0 }
    var theoreticalFalsePositiveRate: Double { Double(bits.nonzeroBitCount) / 64 }
}

extension StrategyCatalogue {
    /// The toy strategies.
    static let toys = StrategyCatalogue(
        windows: [
            WindowEntry(ToyExactWindow.self, reads: [.windowLength], summary: "exact dictionary window"),
            WindowEntry(ToyTinyWindow.self, reads: [.windowLength, .windowCapacity], summary: "bounded list window", defaultCapacity: 1),
        ],
        consumedSets: [
            ConsumedSetEntry(ToyExactSet.self, reads: [], summary: "exact set"),
            ConsumedSetEntry(ToyFIFOSet.self, reads: [.capacity], summary: "bounded FIFO", defaultConfiguration: ConsumedSetConfiguration(capacity: 1)),
            ConsumedSetEntry(ToyFilter.self, reads: [.capacity], summary: "64-bit one-hash filter"),
        ])
}
