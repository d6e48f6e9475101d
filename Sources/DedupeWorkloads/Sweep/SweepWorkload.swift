import PushDedupe

/// Parameters of the sweep family the harness varies to draw trade-off curves.
public struct SweepParameters: Hashable, Sendable {
    /// Distinct fingerprints live inside one window at steady state.
    public var liveFingerprints: Int
    /// Fraction of events whose truth is `dup`, in [0, 1).
    public var duplicateRatio: Double
    /// Total events.
    public var events: Int
    /// The window the live-set size is computed for.
    public var window: Duration

    public init(liveFingerprints: Int, duplicateRatio: Double, events: Int, window: Duration = .milliseconds(500)) {
        self.liveFingerprints = liveFingerprints
        self.duplicateRatio = duplicateRatio
        self.events = events
        self.window = window
    }
}

/// The sweep family. (Skeleton: the workload issue replaces this body with the real generator.)
public enum SweepWorkload {
    public static func make(_ parameters: SweepParameters, seed: UInt64) -> Workload {
        let live = max(1, parameters.liveFingerprints)
        let spacing = max(1, parameters.window.wholeNanoseconds / Int64(live))
        var events: [WorkloadEvent] = []
        events.reserveCapacity(parameters.events)
        var routes: [String] = []
        for index in 0..<parameters.events {
            let route = "item:\(index)"
            routes.append(route)
            events.append(WorkloadEvent(
                time: Timestamp(nanoseconds: Int64(index) * spacing), kind: .payload,
                envelope: EnvelopeID(high: seed, low: UInt64(index)),
                fingerprint: RouteFingerprint(route: route), route: UInt32(index), source: 0, truth: .new))
        }
        return Workload(name: "sweep", summary: "sweep skeleton", routes: routes, sources: ["tap"], events: events)
    }
}
