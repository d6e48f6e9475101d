/// What a deduplicator tells a trace recorder: every event it decided, in decision order, with
/// the decision.
///
/// ``TraceRecorder`` is the implementation; the deduplicators hold it behind this protocol so
/// that their type does not depend on the recorder's sink. That costs one dynamic call per
/// recorded event, and nothing when no recorder is attached. A deduplicator reads the time
/// before it decides and records after, so `decision` is known. An implementation must not call
/// back into the deduplicator that calls it.
public protocol TraceRecording: AnyObject, Sendable {
    /// A payload normalized to `route`, as the envelope `envelope`: `EnvelopeID(token: pushID)`
    /// when the app passed the push's id, the app's `UUID` otherwise (`pushID` is then `nil`).
    func recordPayload(
        route: String, envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp,
        decision: RoutingDecision)
    /// A payload whose route the app digested itself.
    func recordPayload(
        _ fingerprint: RouteFingerprint, envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp,
        decision: RoutingDecision)
    /// An existing envelope emitted again.
    func recordEmit(envelope: EnvelopeID, source: String, at time: Timestamp, decision: RoutingDecision)
    /// The app entered the background: the last callback it can count on before a kill.
    func recordBackground(at time: Timestamp)
}

/// What a ``NavigationRouter`` tells a trace recorder about the actions under its loading guard:
/// every tap that triggers one, and how each started one ended. The router holds it behind this
/// protocol, optional, so a router without a recorder pays one `nil` check per action.
public protocol ActionRecording: AnyObject, Sendable {
    /// A tap triggered the action `key`, whether or not the router started it. Returns the
    /// number the recorder gave the action, for ``recordActionEnded(_:cancelled:at:)``.
    func recordActionTriggered(_ key: ActionKey, at time: Timestamp) -> Int
    /// The action numbered `action`, which the router started, exited: returned or threw, or was
    /// `cancelled`.
    func recordActionEnded(_ action: Int, cancelled: Bool, at time: Timestamp)
}
