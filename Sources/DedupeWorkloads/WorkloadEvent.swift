import PushDedupe

/// How an event enters the app.
public enum EventKind: UInt8, Hashable, Sendable, CaseIterable {
    /// A delivery of a push to the app (or an in-app navigation) normalized to a route: layer 1,
    /// then, if admitted, a new envelope. Every delivery of one push is a payload of its own,
    /// carrying the push's id (``WorkloadEvent/push``).
    case payload
    /// The router re-emitting an envelope it already created (a pending route replayed, a ready
    /// callback, a second path owner): layer 2 only.
    case emit
    /// The app's process was killed and started again: windows and navigation state are lost,
    /// and the consumed set keeps only what it persisted. Envelopes created before stay valid:
    /// the app persists its pending route, so a later emit may name one. Carries no envelope,
    /// route or source (see ``WorkloadEvent/relaunch(at:)``) and is never scored.
    case relaunch
    /// The app entered the background (`didEnterBackground`, the last callback iOS guarantees
    /// before it may kill a suspended app): a persistence that saves only then saves here.
    /// Carries no envelope, route or source (see ``WorkloadEvent/background(at:)``) and is never
    /// scored.
    case background

    /// Whether the event is a lifecycle marker (relaunch, background) rather than a delivery.
    @inlinable
    public var isLifecycle: Bool { self == .relaunch || self == .background }
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
    /// Index into ``Workload/pushes``: which push this delivery is, by the id the push carries
    /// (the app server's message id in the payload). Every delivery of one push shares it; an emit
    /// carries its envelope's creating payload's. ``WorkloadEvent/noPush`` for an in-app
    /// navigation (a button, an async completion), a lifecycle marker, or a trace without push ids.
    public var push: UInt32

    /// The ``push`` of an event that carries no push id.
    public static let noPush = UInt32.max

    /// A relaunch at `time`: a zero envelope, route `UInt32.max`, source `UInt16.max` (no index),
    /// no push and truth `unknown`.
    public static func relaunch(at time: Timestamp) -> WorkloadEvent {
        lifecycle(.relaunch, at: time)
    }

    /// The app entering the background at `time`, with the same empty fields as a relaunch.
    public static func background(at time: Timestamp) -> WorkloadEvent {
        lifecycle(.background, at: time)
    }

    private static func lifecycle(_ kind: EventKind, at time: Timestamp) -> WorkloadEvent {
        WorkloadEvent(
            time: time, kind: kind, envelope: EnvelopeID(high: 0, low: 0), fingerprint: RouteFingerprint(rawValue: 0),
            route: .max, source: .max, truth: .unknown)
    }

    public init(
        time: Timestamp, kind: EventKind, envelope: EnvelopeID, fingerprint: RouteFingerprint,
        route: UInt32, source: UInt16, truth: Truth, push: UInt32 = WorkloadEvent.noPush
    ) {
        self.time = time
        self.kind = kind
        self.envelope = envelope
        self.fingerprint = fingerprint
        self.route = route
        self.source = source
        self.truth = truth
        self.push = push
    }
}
