import DedupeWorkloads
import PushDedupe

/// A seeded hand-built workload with every kind of event: payloads (most delivering a push, a
/// push often delivered twice, some in-app ones with none), emits of earlier envelopes (carrying
/// their payload's push), relaunches and backgrounds. With `orphanEmits`, some emits name an
/// envelope no payload created, as only a hand-built workload can: under `push-id` their push
/// may have been created by another delivery, so the creator flags of the two identities differ.
func randomWorkload(seed: UInt64, events count: Int, orphanEmits: Bool = false, spacingNanoseconds: Int64 = 40_000_000) -> Workload {
    var random = SplitMix64(seed: seed)
    var events: [WorkloadEvent] = []
    var pushes: [EnvelopeID] = []
    var created: [(envelope: EnvelopeID, fingerprint: RouteFingerprint, route: UInt32, push: UInt32)] = []
    var time: Int64 = 0
    for _ in 0..<count {
        time += Int64(random.next() % UInt64(max(1, spacingNanoseconds)))
        let roll = random.next() % 100
        let at = Timestamp(nanoseconds: time)
        if roll < 3 {
            events.append(.relaunch(at: at))
        } else if roll < 5 {
            events.append(.background(at: at))
        } else if roll < 30, !created.isEmpty {
            let payload = created[Int(random.next() % UInt64(created.count))]
            let orphan = orphanEmits && random.next() % 4 == 0
            events.append(WorkloadEvent(
                time: at, kind: .emit, envelope: orphan ? EnvelopeID(high: random.next(), low: random.next()) : payload.envelope,
                fingerprint: payload.fingerprint, route: payload.route, source: 1, truth: random.next() % 2 == 0 ? .dup : .new,
                push: payload.push))
        } else {
            let route = UInt32(random.next() % 40)
            let push: UInt32
            switch random.next() % 5 {
            case 0: push = WorkloadEvent.noPush
            case 1 where !pushes.isEmpty: push = UInt32(random.next() % UInt64(pushes.count))
            default:
                push = UInt32(pushes.count)
                pushes.append(EnvelopeID(high: random.next(), low: random.next()))
            }
            let envelope = EnvelopeID(high: random.next(), low: random.next())
            let fingerprint = RouteFingerprint(route: "item:\(route)")
            created.append((envelope, fingerprint, route, push))
            events.append(WorkloadEvent(
                time: at, kind: .payload, envelope: envelope, fingerprint: fingerprint, route: route, source: 0,
                truth: random.next() % 3 == 0 ? .dup : .new, push: push))
        }
    }
    return Workload(
        name: "random-\(seed)", summary: "", routes: (0..<40).map { "item:\($0)" }, sources: ["tap", "pending_route"],
        events: events, pushes: pushes)
}
