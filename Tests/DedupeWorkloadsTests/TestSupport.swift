import PushDedupe
@testable import DedupeWorkloads

/// One event with its strings and push id resolved, for comparing workloads whose index tables
/// differ.
struct ResolvedEvent: Equatable, CustomStringConvertible {
    var time: Int64
    var kind: EventKind
    var envelope: EnvelopeID
    var fingerprint: RouteFingerprint
    var route: String
    var source: String
    var truth: Truth
    /// The push's id, or `nil` for an event without one.
    var push: EnvelopeID?

    var description: String { "\(time) \(kind) \(envelope) \(route) \(source) \(truth) \(push.map(\.description) ?? "-")" }
}

extension Workload {
    var resolvedEvents: [ResolvedEvent] {
        events.map {
            // A lifecycle event indexes no route or source.
            let isLifecycle = $0.kind.isLifecycle
            return ResolvedEvent(
                time: $0.time.nanoseconds, kind: $0.kind, envelope: $0.envelope, fingerprint: $0.fingerprint,
                route: isLifecycle ? "" : routes[Int($0.route)], source: isLifecycle ? "" : sources[Int($0.source)],
                truth: $0.truth, push: $0.push == WorkloadEvent.noPush ? nil : pushes[Int($0.push)])
        }
    }

    func count(_ truth: Truth) -> Int { events.reduce(0) { $0 + ($1.truth == truth ? 1 : 0) } }

    func source(of event: WorkloadEvent) -> String { sources[Int(event.source)] }

    func route(of event: WorkloadEvent) -> String { routes[Int(event.route)] }
}

/// Which id an app keys its envelopes on (the harness's identity dimension).
enum Identity: CaseIterable {
    /// The payload's own minted envelope.
    case minted
    /// The push's id when the delivery carries one, else the minted envelope.
    case pushID
}

/// When the consumed set is saved (the harness's persistence dimension).
enum Persistence: CaseIterable {
    case memory, afterEveryConsume, onBackground
}

extension Workload {
    /// The id an app with `identity` records event `event` under. An emit carries its creating
    /// payload's push, so it maps to the same key as that payload.
    func key(of event: WorkloadEvent, _ identity: Identity) -> EnvelopeID {
        identity == .pushID && event.push != WorkloadEvent.noPush ? pushes[Int(event.push)] : event.envelope
    }

    /// The events a consumed set alone (no window) lets through although they are `dup`, and the
    /// `new` ones it suppresses: a plain reference model of a FIFO set holding at most
    /// `capacity` ids, each for at most `retention` nanoseconds.
    func consumedSetOutcome(
        _ identity: Identity, _ persistence: Persistence, capacity: Int = .max, retention: Int64 = .max
    ) -> (missed: [Int], falseDrops: [Int]) {
        var order: [(key: EnvelopeID, time: Int64)] = []
        var head = 0
        var members: [EnvelopeID: Int64] = [:]
        var saved: (order: [(key: EnvelopeID, time: Int64)], members: [EnvelopeID: Int64]) = ([], [:])
        var missed: [Int] = []
        var falseDrops: [Int] = []
        for (index, event) in events.enumerated() {
            let now = event.time.nanoseconds
            switch event.kind {
            case .background:
                if persistence == .onBackground { saved = (Array(order[head...]), members) }
                continue
            case .relaunch:
                switch persistence {
                case .memory: (order, members) = ([], [:])
                case .afterEveryConsume: continue
                case .onBackground: (order, members) = saved
                }
                head = 0
                continue
            case .payload, .emit:
                break
            }
            let key = key(of: event, identity)
            if let inserted = members[key], now - inserted < retention {
                if event.truth == .new { falseDrops.append(index) }
                continue
            }
            if event.truth == .dup { missed.append(index) }
            members[key] = now
            order.append((key, now))
            while order.count - head > capacity {
                if members[order[head].key] == order[head].time { members[order[head].key] = nil }
                head += 1
            }
        }
        return (missed, falseDrops)
    }
}
