/// What a ``RouterCore`` asks its shell to do. The core has already updated its own state; an
/// effect is the part only the shell can carry out (a `Task`, a store write) or report.
public enum RouterEffect<Route: Hashable & Sendable>: Sendable, Hashable {
    /// Start the route's async work (the detail fetch); report its end under `token`.
    case startWork(WorkToken, Route)
    /// Cancel the work `token`: a newer route superseded it. Its later report is dropped.
    case cancelWork(WorkToken)
    /// The route was appended to the core's path (a UIKit host pushes its screen here; a
    /// `NavigationStack` reads the path).
    case append(Route)
    /// The event changed nothing, for `reason`.
    case ignore(RouteIgnoreReason)
    /// Make the envelope's consume durable. `cause` says which exit of the routing reached it.
    case commitConsume(EnvelopeID, ConsumeCommitCause)
    /// Run the action `key`, then report ``RouterEvent/actionFinished(_:)`` on every exit.
    case startAction(ActionKey)
}

/// Why an event changed nothing.
public enum RouteIgnoreReason: String, Sendable, Hashable, CaseIterable {
    /// The route is already on top of the stack (`path.last == route`).
    case duplicateOnTop = "duplicate-on-top"
    /// Layer 2 dropped the envelope: it was consumed before.
    case consumedEnvelope = "consumed-envelope"
    /// Layer 1 dropped the payload: the same screen was admitted within the window.
    case windowDuplicate = "window-duplicate"
    /// An action with the same key is running.
    case inFlightAction = "in-flight-action"
    /// Work a newer route superseded reported completion anyway (it finished before it saw the
    /// cancellation).
    case superseded
}

/// The exit of a routing at which its envelope's consume is committed.
public enum ConsumeCommitCause: String, Sendable, Hashable, CaseIterable {
    /// At receipt, before the work (``ConsumeTiming/commitBeforeWork``).
    case receipt
    /// The route was appended.
    case shown
    /// The route was already on top, at the request or when the work completed.
    case alreadyOnTop = "already-on-top"
    /// The work failed: retrying belongs to a separate policy, not to a replay of the envelope.
    case failed
    /// A newer route cancelled the work.
    case superseded
    /// The work was cancelled from outside the core.
    case cancelled
}
