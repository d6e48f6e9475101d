/// What a deduplicator tells a trace recorder: every event it decided, in decision order.
///
/// ``TraceRecorder`` is the implementation; the deduplicators hold it behind this protocol so
/// that their type does not depend on the recorder's sink. That costs one dynamic call per
/// recorded event, and nothing when no recorder is attached. An implementation must not call back
/// into the deduplicator that calls it.
public protocol TraceRecording: AnyObject, Sendable {
    /// A payload normalized to `route`, given the fresh envelope `envelope`.
    func recordPayload(route: some StringProtocol, envelope: EnvelopeID, source: String, at time: Timestamp)
    /// A payload whose route the app digested itself.
    func recordPayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, source: String, at time: Timestamp)
    /// An existing envelope emitted again.
    func recordEmit(envelope: EnvelopeID, source: String, at time: Timestamp)
    /// The app was relaunched: everything in memory before this point is gone.
    func recordRelaunch(at time: Timestamp)
}
