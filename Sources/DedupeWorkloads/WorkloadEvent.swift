import PushDedupe

/// How an event enters the app.
public enum EventKind: UInt8, Hashable, Sendable, CaseIterable {
    /// A push payload normalized to a route: layer 1, then, if admitted, a new envelope.
    case payload
    /// An envelope already created, emitted again on another lifecycle path: layer 2 only.
    case emit
    /// The app's process was killed and started again: windows and navigation state are lost,
    /// and the consumed set keeps only what it persisted. Envelopes created before stay valid:
    /// the app persists its pending route, so a later emit may name one. Carries no envelope,
    /// route or source (see ``WorkloadEvent/relaunch(at:)``) and is never scored.
    case relaunch
}

/// What a perfect deduplicator does with an event.
public enum Truth: UInt8, Hashable, Sendable, CaseIterable {
    /// A navigation the user wants.
    case new
    /// Must not reach the screen.
    case dup
    /// Not labelled (a user trace with an empty `truth`): not scored.
    case unknown
}

/// One event of a workload, in processing order.
///
/// Strings live once in the owning ``Workload`` (`routes`, `sources`); events refer to them by
/// index so a 10⁷-event workload stays compact.
public struct WorkloadEvent: Hashable, Sendable {
    /// When the app handles the event. Non-decreasing within a workload.
    public var time: Timestamp
    /// The envelope created by this payload, or re-emitted by this emit.
    public var envelope: EnvelopeID
    /// The route's fingerprint. An emit carries the fingerprint of the payload that created its
    /// envelope.
    public var fingerprint: RouteFingerprint
    /// Index into ``Workload/routes``.
    public var route: UInt32
    /// Index into ``Workload/sources``.
    public var source: UInt16
    public var kind: EventKind
    public var truth: Truth

    /// A relaunch at `time`: a zero envelope, route `UInt32.max`, source `UInt16.max` (no index)
    /// and truth `unknown`.
    public static func relaunch(at time: Timestamp) -> WorkloadEvent {
        WorkloadEvent(
            time: time, kind: .relaunch, envelope: EnvelopeID(high: 0, low: 0), fingerprint: RouteFingerprint(rawValue: 0),
            route: .max, source: .max, truth: .unknown)
    }

    public init(
        time: Timestamp, kind: EventKind, envelope: EnvelopeID, fingerprint: RouteFingerprint,
        route: UInt32, source: UInt16, truth: Truth
    ) {
        self.time = time
        self.kind = kind
        self.envelope = envelope
        self.fingerprint = fingerprint
        self.route = route
        self.source = source
        self.truth = truth
    }
}
