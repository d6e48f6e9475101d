import PushDedupe
@testable import DedupeWorkloads

/// One event with its strings resolved, for comparing workloads whose index tables differ.
struct ResolvedEvent: Equatable, CustomStringConvertible {
    var time: Int64
    var kind: EventKind
    var envelope: EnvelopeID
    var fingerprint: RouteFingerprint
    var route: String
    var source: String
    var truth: Truth

    var description: String { "\(time) \(kind) \(envelope) \(route) \(source) \(truth)" }
}

extension Workload {
    var resolvedEvents: [ResolvedEvent] {
        events.map {
            // A relaunch indexes no route or source.
            let isRelaunch = $0.kind == .relaunch
            return ResolvedEvent(
                time: $0.time.nanoseconds, kind: $0.kind, envelope: $0.envelope, fingerprint: $0.fingerprint,
                route: isRelaunch ? "" : routes[Int($0.route)], source: isRelaunch ? "" : sources[Int($0.source)], truth: $0.truth)
        }
    }

    func count(_ truth: Truth) -> Int { events.reduce(0) { $0 + ($1.truth == truth ? 1 : 0) } }

    func source(of event: WorkloadEvent) -> String { sources[Int(event.source)] }

    func route(of event: WorkloadEvent) -> String { routes[Int(event.route)] }
}
