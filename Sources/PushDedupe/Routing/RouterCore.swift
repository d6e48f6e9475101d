/// The router's decisions as a pure state machine: events in, effects out. It owns the navigation
/// path and applies both articles' router and view fixes; a shell (``NavigationRouter``) carries
/// its effects out with `Task`s and a ledger. It reads no clock and starts nothing, so a test or
/// a verifier drives the code that ships, one event at a time.
///
/// ```swift
/// var core = RouterCore<String>()
/// var effects: [RouterEffect<String>] = []
/// core.handle(.routeRequested("item:42", envelope: id, decision: .navigated), into: &effects)
/// // [.startWork(work#0, "item:42")]
/// core.handle(.workCompleted(WorkToken(0)), into: &effects)
/// // [..., .append("item:42"), .commitConsume(id, .shown)]; core.path == ["item:42"]
/// ```
///
/// What it guarantees, under ``RouterConfiguration/init()``:
/// - **One owner of the path.** ``path`` changes only through ``handle(_:into:)``; the view's own
///   changes arrive as ``RouterEvent/userChangedPath(_:)``.
/// - **The top of the stack.** No push, a button's or a route's, appends the route already on top.
/// - **Consumed first.** The envelope reaches the core already consumed in memory by the
///   deduplicator; every exit of its routing (shown, already on top, failed, superseded,
///   cancelled) commits it exactly once, and a kill before the work ends leaves it uncommitted
///   (see ``ConsumeTiming``).
/// - **The latest route wins.** A new request cancels the work in flight, and a report from
///   cancelled work never appends.
/// - **The loading guard.** One action per ``ActionKey`` at a time; ``isBusy(_:)`` is true from
///   the trigger to the action's end, however it ends.
///
/// - Complexity: O(1) per event, plus O(work in flight) for a request that cancels it (at most
///   one with cancellation on) and O(*n*) in the path's length for ``RouterEvent/userChangedPath(_:)``.
public struct RouterCore<Route: Hashable & Sendable>: Sendable {
    public let configuration: RouterConfiguration
    /// The navigation stack, bottom first: what a `NavigationStack(path:)` shows.
    @inlinable public var path: [Route] { _path }
    // Internal and `@usableFromInline`, with `handle(_:into:)` `@inlinable`, so that a caller in
    // another module (the harness's per-event loop, the verifier) gets a specialized core: the
    // unspecialized one looks up its generic metadata at every event.
    @usableFromInline var _path: [Route] = []
    /// Started, not yet ended: one entry with cancellation on.
    @usableFromInline var inFlight: [InFlightWork] = []
    /// Running actions per key; more than one only with the loading guard off.
    @usableFromInline var running: [ActionKey: Int] = [:]
    @usableFromInline var tokensIssued: UInt64 = 0

    @usableFromInline
    struct InFlightWork: Sendable {
        @usableFromInline var token: WorkToken
        @usableFromInline var route: Route
        @usableFromInline var envelope: EnvelopeID

        @inlinable
        init(token: WorkToken, route: Route, envelope: EnvelopeID) {
            self.token = token
            self.route = route
            self.envelope = envelope
        }
    }

    public init(configuration: RouterConfiguration = RouterConfiguration()) {
        self.configuration = configuration
    }

    /// Whether an action with `key` is running: for a button's `.disabled(_:)`.
    ///
    /// - Complexity: O(1).
    public func isBusy(_ key: ActionKey) -> Bool {
        running[key] != nil
    }

    /// The tokens of the work started and not yet ended, oldest first.
    ///
    /// - Complexity: O(work in flight).
    public var workInFlight: [WorkToken] { inFlight.map(\.token) }

    /// Applies `event` and appends the effects it asks for to `effects`, in the order the shell
    /// must carry them out. Appending rather than returning lets a caller reuse one buffer, so a
    /// verifier exploring many orderings allocates nothing per event once the buffer has grown.
    ///
    /// - Complexity: O(1), plus O(work in flight) for a request that cancels it, and O(*n*) in
    ///   the path's length for ``RouterEvent/userChangedPath(_:)``.
    @inlinable
    public mutating func handle(_ event: RouterEvent<Route>, into effects: inout [RouterEffect<Route>]) {
        switch event {
        case let .routeRequested(route, envelope, decision):
            request(route, envelope: envelope, decision: decision, into: &effects)
        case let .buttonPushed(route):
            pushFromView(route, into: &effects)
        case let .workCompleted(token):
            guard let work = endWork(token) else {
                effects.append(.ignore(.superseded))
                return
            }
            if configuration.topGuard.contains(.routedPushes), path.last == work.route {
                effects.append(.ignore(.duplicateOnTop))
                commitIfReserved(work.envelope, .alreadyOnTop, into: &effects)
            } else {
                _path.append(work.route)
                // The append first, then the commit, in one main-actor turn: the screen renders
                // only after the turn, so a kill before the commit has shown nothing and a kill
                // after it finds the consume durable.
                effects.append(.append(work.route))
                commitIfReserved(work.envelope, .shown, into: &effects)
            }
        case let .workFailed(token):
            // A report for work the core already ended is the expected echo of its cancel.
            guard let work = endWork(token) else { return }
            commitIfReserved(work.envelope, .failed, into: &effects)
        case let .workCancelled(token):
            guard let work = endWork(token) else { return }
            commitIfReserved(work.envelope, .cancelled, into: &effects)
        case let .userChangedPath(newPath):
            if newPath.count > path.count, newPath.starts(with: path) {
                for route in newPath[path.count...] { pushFromView(route, into: &effects) }
            } else {
                _path = newPath
            }
        case let .actionTriggered(key):
            if configuration.loadingGuard, running[key] != nil {
                effects.append(.ignore(.inFlightAction))
                return
            }
            running[key, default: 0] += 1
            effects.append(.startAction(key))
        case let .actionFinished(key):
            guard let count = running[key] else { return }
            running[key] = count > 1 ? count - 1 : nil
        }
    }

    @inlinable
    mutating func request(
        _ route: Route, envelope: EnvelopeID, decision: RoutingDecision, into effects: inout [RouterEffect<Route>]
    ) {
        switch decision {
        case .navigated: break
        case .suppressedByWindow:
            effects.append(.ignore(.windowDuplicate))
            return
        case .suppressedByConsumedSet:
            effects.append(.ignore(.consumedEnvelope))
            return
        }
        // The latest request wins even when its screen is on top already: work still in flight
        // for an older route would otherwise push over the screen the user asked for last.
        if configuration.cancelsSupersededWork {
            for work in inFlight {
                effects.append(.cancelWork(work.token))
                commitIfReserved(work.envelope, .superseded, into: &effects)
            }
            inFlight.removeAll(keepingCapacity: true)
        }
        if configuration.topGuard.contains(.routedPushes), path.last == route {
            // An early return: the envelope was consumed all the same, so it is committed.
            effects.append(.ignore(.duplicateOnTop))
            effects.append(.commitConsume(envelope, .alreadyOnTop))
            return
        }
        if configuration.consume == .commitBeforeWork {
            effects.append(.commitConsume(envelope, .receipt))
        }
        let token = WorkToken(tokensIssued)
        tokensIssued &+= 1
        inFlight.append(InFlightWork(token: token, route: route, envelope: envelope))
        effects.append(.startWork(token, route))
    }

    @inlinable
    mutating func pushFromView(_ route: Route, into effects: inout [RouterEffect<Route>]) {
        if configuration.topGuard.contains(.buttonPushes), path.last == route {
            effects.append(.ignore(.duplicateOnTop))
            return
        }
        _path.append(route)
        effects.append(.append(route))
    }

    @inlinable
    mutating func endWork(_ token: WorkToken) -> InFlightWork? {
        guard let index = inFlight.firstIndex(where: { $0.token == token }) else { return nil }
        return inFlight.remove(at: index)
    }

    /// Under ``ConsumeTiming/commitBeforeWork`` the receipt already committed the envelope.
    @inlinable
    func commitIfReserved(_ envelope: EnvelopeID, _ cause: ConsumeCommitCause, into effects: inout [RouterEffect<Route>]) {
        guard configuration.consume == .reserveThenCommit else { return }
        effects.append(.commitConsume(envelope, cause))
    }
}
