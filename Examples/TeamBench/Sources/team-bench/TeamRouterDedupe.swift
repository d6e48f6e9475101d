import DedupeBench
import Foundation

/// The team's router dedupe as one type, in the published code's shape: recent route
/// fingerprints in an array (expired ones removed, then scanned, then appended) right after a
/// payload is normalized, and a `Set<UUID>` of consumed envelope ids checked, then marked, at
/// the router's entry.
struct TeamRouterDedupe: DedupePipeline {
    static let strategyID = "team-router"
    static let guarantee = Guarantee.exact

    private struct RecentRouteFingerprint {
        let fingerprint: String
        let at: Date
    }

    private var recentRouteFingerprints: [RecentRouteFingerprint] = []
    private var consumedRouteIds = Set<UUID>()
    private let dedupeWindow: TimeInterval
    private var latest = Date.distantPast

    init(window: WindowConfiguration, consumed: ConsumedSetConfiguration) throws(ConfigurationError) {
        dedupeWindow = Double(window.window.components.seconds) + Double(window.window.components.attoseconds) * 1e-18
    }

    mutating func receivePayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, at time: Timestamp) -> RoutingDecision {
        let now = date(time)
        let fingerprint = fingerprint.description
        recentRouteFingerprints.removeAll { now.timeIntervalSince($0.at) > dedupeWindow }
        if recentRouteFingerprints.contains(where: { $0.fingerprint == fingerprint }) { return .suppressedByWindow }
        recentRouteFingerprints.append(RecentRouteFingerprint(fingerprint: fingerprint, at: now))
        return receiveEmit(envelope: envelope, at: time)
    }

    mutating func receiveEmit(envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision {
        let id = UUID(envelope)
        guard !consumedRouteIds.contains(id) else { return .suppressedByConsumedSet }
        consumedRouteIds.insert(id)
        return .navigated
    }

    /// The `Date()` the app would read, from the time the bench passes; never earlier than the
    /// latest one.
    private mutating func date(_ now: Timestamp) -> Date {
        latest = max(latest, Date(timeIntervalSince1970: Double(now.nanoseconds) / 1e9))
        return latest
    }
}
