import DedupeBench
import Foundation

/// The team's layer 1 as it ships: the last time each route was opened, in a `[String: Date]`
/// keyed by the route, and a repeat within the window dropped.
///
/// The bench passes every time (`now`); a `Date` is built from it where the app reads `Date()`.
/// The dictionary hashes with Swift's per-process seeded hasher, which changes no answer: only
/// lookups decide, never the order of the keys.
struct RouteDateWindow: FingerprintWindow {
    static let strategyID = "route-date-map"
    static let guarantee = Guarantee.exact

    let window: Duration
    private let seconds: TimeInterval
    private var lastOpened: [String: Date] = [:]
    private var latest = Date.distantPast

    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        guard configuration.window >= .zero else {
            throw ConfigurationError(strategy: Self.strategyID, parameter: "window", reason: "must not be negative")
        }
        window = configuration.window
        seconds = Double(configuration.window.components.seconds) + Double(configuration.window.components.attoseconds) * 1e-18
    }

    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        // Time never runs backwards inside a window (the protocol's rule).
        latest = max(latest, Date(timeIntervalSince1970: Double(now.nanoseconds) / 1e9))
        let route = fingerprint.description
        if let opened = lastOpened[route], latest.timeIntervalSince(opened) <= seconds { return false }
        lastOpened[route] = latest
        // The team prunes when the map grows, as its code does, so it stays small.
        if lastOpened.count > 64 { lastOpened = lastOpened.filter { latest.timeIntervalSince($0.value) <= seconds } }
        return true
    }

    var count: Int { lastOpened.count }
    var footprint: Int { lastOpened.capacity * (MemoryLayout<String>.stride + MemoryLayout<Date>.stride) }
    var evictions: Int { 0 }
}
