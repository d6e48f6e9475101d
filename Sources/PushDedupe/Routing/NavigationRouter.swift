/// The router an app holds: one owner of the navigation path, fed by pushes, buttons and the
/// view. A thin main-actor shell over ``RouterCore``, which makes every decision; this class only
/// asks the ledger, runs the work and the actions as `Task`s, and reports how they end.
///
/// ```swift
/// let router = NavigationRouter<AppRoute, _>(ledger: dedupe) { route in try await details.load(route) }
/// router.receivePayload(.item(42), pushID: messageID)     // the notification tap
/// router.receiveEmit(.item(42), pushID: messageID)        // its pending-route replay: ignored
/// router.push(.settings)                                  // a button: guarded by path.last
/// router.run(action: "checkout") { try await checkout() } // ignored while a checkout runs
/// ```
///
/// Child screens get the router, never a path of their own: two owners each append, and no guard
/// can tell which append is the duplicate. With SwiftUI, bind `NavigationStack(path:)` to
/// `router.pathBinding` (`NavigationRouter+SwiftUI.swift`).
///
/// - Complexity: each call is the ledger's call plus ``RouterCore/handle(_:into:)``.
@MainActor
public final class NavigationRouter<Route: Hashable & Sendable, Ledger: RouteConsumeLedger> {
    /// A route's async work before it shows (the detail fetch). It throws, or returns after a
    /// cancellation, to say the route must not show.
    public typealias Work = @MainActor (Route) async throws -> Void

    private var core: RouterCore<Route>
    private let ledger: Ledger
    private let fingerprint: (Route) -> String
    private let prepare: Work
    private var tasks: [WorkToken: Task<Void, Never>] = [:]
    /// Reused across events, so an event allocates no effect list.
    private var effects: [RouterEffect<Route>] = []

    /// Events that changed nothing, by reason: log them beside the deduplicator's counters.
    public private(set) var ignored: [RouteIgnoreReason: Int] = [:]
    /// Where taps and action ends go, with the clock that times them; `nil` costs one check per
    /// action.
    private var actionRecorder: (recorder: any ActionRecording, clock: DedupeClock)?

    /// - Parameters:
    ///   - ledger: the deduplicator (or a ledger that reserves, then commits).
    ///   - prepare: the route's work before it shows; none by default. Before `fingerprint`, so
    ///     that a trailing closure is the work.
    ///   - fingerprint: what layer 1 compares: the screen a route points at (`"item:42"`); the
    ///     route's description by default.
    public init(
        ledger: Ledger, configuration: RouterConfiguration = RouterConfiguration(),
        prepare: @escaping Work = { _ in },
        fingerprint: @escaping (Route) -> String = { String(describing: $0) }
    ) {
        core = RouterCore(configuration: configuration)
        self.ledger = ledger
        self.fingerprint = fingerprint
        self.prepare = prepare
    }

    /// The navigation stack, bottom first. Only the router changes it.
    public var path: [Route] { core.path }

    /// The switches the core runs under.
    public var configuration: RouterConfiguration { core.configuration }

    /// Whether the action `key` is running: for `.disabled(_:)`.
    public func isBusy(_ key: ActionKey) -> Bool {
        core.isBusy(key)
    }

    /// A payload just normalized to `route`, delivered by the push `pushID` (notification tap,
    /// cold-launch options, initial notification): layers 1 and 2, then the route.
    public func receivePayload(_ route: Route, pushID: String) {
        let decision = ledger.reservePayload(fingerprint: fingerprint(route), pushID: pushID)
        send(.routeRequested(route, envelope: EnvelopeID(token: pushID), decision: decision))
    }

    /// The envelope of push `pushID`, emitted again (pending route, ready callback): layer 2,
    /// then the route.
    public func receiveEmit(_ route: Route, pushID: String) {
        let decision = ledger.reserveEmit(pushID: pushID)
        send(.routeRequested(route, envelope: EnvelopeID(token: pushID), decision: decision))
    }

    /// A button's push: appended now unless the route is on top.
    public func push(_ route: Route) {
        send(.buttonPushed(route))
    }

    /// The view changed the path (a back swipe, `NavigationLink(value:)`): the binding's setter.
    public func userChangedPath(to path: [Route]) {
        send(.userChangedPath(path))
    }

    /// Reports every tap on an action and how each started action ended to `recorder`, timed by
    /// `clock`: the deduplicator's, so the trace's times agree (`Guides/Recording.md`).
    ///
    /// ```swift
    /// let recorder = TraceRecorder(sink: TraceBuffer(), recordsActions: true)
    /// router.attach(recorder, clock: clock)
    /// ```
    public func attach(_ recorder: any ActionRecording, clock: DedupeClock) {
        actionRecorder = (recorder, clock)
    }

    /// Runs `operation` under the loading guard for `key`: ignored, returning `nil`, while an
    /// action with that key runs; otherwise ``isBusy(_:)`` stays true until `operation` exits,
    /// whether it returns, throws or is cancelled. Errors are the operation's to handle: the
    /// guard only needs to know that it ended.
    @discardableResult
    public func run(action key: ActionKey, operation: @escaping @MainActor () async throws -> Void) -> Task<Void, Never>? {
        let recorded = actionRecorder.map { $0.recorder.recordActionTriggered(key, at: $0.clock.now()) }
        return send(.actionTriggered(key), action: operation, recorded: recorded)
    }

    /// Hands `event` to the core and carries out its effects. `action` is the operation of a
    /// ``RouterEvent/actionTriggered(_:)``, started if the core says so.
    @discardableResult
    private func send(
        _ event: RouterEvent<Route>, action: (@MainActor () async throws -> Void)? = nil, recorded: Int? = nil
    ) -> Task<Void, Never>? {
        #if canImport(SwiftUI)
        _announceChange()
        #endif
        effects.removeAll(keepingCapacity: true)
        core.handle(event, into: &effects)
        var started: Task<Void, Never>?
        for effect in effects {
            switch effect {
            case let .startWork(token, route):
                tasks[token] = Task { await self.runWork(token, route) }
            case let .cancelWork(token):
                tasks[token]?.cancel()
            case .append:
                // The path is the core's, already updated; a NavigationStack reads it.
                break
            case let .ignore(reason):
                ignored[reason, default: 0] += 1
            case let .commitConsume(envelope, _):
                ledger.commit(envelope)
            case let .startAction(key):
                started = Task {
                    defer {
                        if let recorded, let (recorder, clock) = self.actionRecorder {
                            recorder.recordActionEnded(recorded, cancelled: Task.isCancelled, at: clock.now())
                        }
                        self.send(.actionFinished(key))
                    }
                    try? await action?()
                }
            }
        }
        return started
    }

    private func runWork(_ token: WorkToken, _ route: Route) async {
        let end: RouterEvent<Route>
        do {
            try await prepare(route)
            end = Task.isCancelled ? .workCancelled(token) : .workCompleted(token)
        } catch {
            end = Task.isCancelled || error is CancellationError ? .workCancelled(token) : .workFailed(token)
        }
        tasks[token] = nil
        send(end)
    }
}
