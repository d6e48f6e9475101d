/// What happened, as a ``RouterCore`` hears it: a request, a report from the work it started, or
/// the user moving through the stack.
public enum RouterEvent<Route: Hashable & Sendable>: Sendable, Hashable {
    /// A push asks for `route`. `decision` is the deduplicator's for its envelope, made before
    /// this event (`receivePayload` or `receiveEmit`), which consumed the envelope if it was new.
    case routeRequested(Route, envelope: EnvelopeID, decision: RoutingDecision)
    /// A button pushes `route` at once, with no work and no envelope.
    case buttonPushed(Route)
    /// The work `token` finished and its route may show.
    case workCompleted(WorkToken)
    /// The work `token` threw or found nothing to show.
    case workFailed(WorkToken)
    /// The work `token` stopped at a cancellation check.
    case workCancelled(WorkToken)
    /// The view changed the path: a back swipe or back button (a prefix), an append through the
    /// binding (`NavigationLink(value:)`), or a path it replaced.
    case userChangedPath([Route])
    /// An async action under the loading guard was triggered (a tap on "Checkout").
    case actionTriggered(ActionKey)
    /// An action started by ``RouterEffect/startAction(_:)`` exited, however: returned, threw, or
    /// was cancelled.
    case actionFinished(ActionKey)
}
