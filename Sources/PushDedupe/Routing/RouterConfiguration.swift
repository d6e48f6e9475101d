/// How a ``RouterCore`` applies the two articles' router and view fixes. Every switch defaults to
/// the safe setting; ``published`` is the published code as written.
///
/// Each switch of the policy simulator's `LifecyclePolicy` is one setting here (or, for the two
/// about *when* a consume is recorded, one setting of the ledger); `Guides/Router.md` lists the
/// mapping.
public struct RouterConfiguration: Sendable, Hashable {
    /// When a consumed envelope is made durable (see ``ConsumeTiming``).
    public var consume: ConsumeTiming = .reserveThenCommit
    /// A new route request cancels the route work in flight, so only the latest routing may push
    /// (the first article's `inFlightTask?.cancel()`).
    public var cancelsSupersededWork = true
    /// Which pushes check `path.last != route` first.
    public var topGuard: TopOfStackGuard = .everyPush
    /// A second trigger of an action is ignored while one with the same key runs (the second
    /// article's `isCheckingOut`).
    public var loadingGuard = true

    /// Every fix on, and the consume reserved before the work and committed when it ends.
    public init() {}

    /// The published code as written: the consume committed at receipt, and the top-of-stack
    /// guard only on the view's own pushes (a UIKit `pushViewController` is a command with no such
    /// check).
    public static let published: RouterConfiguration = {
        var configuration = RouterConfiguration()
        configuration.consume = .commitBeforeWork
        configuration.topGuard = .buttonPushes
        return configuration
    }()
}

/// When the router makes an envelope's consume durable. Either way the envelope is consumed in
/// memory before any async work starts, so a replay during the work is dropped.
public enum ConsumeTiming: String, Sendable, Hashable, CaseIterable {
    /// Reserved in memory at receipt, committed (``RouterEffect/commitConsume(_:_:)``) when the
    /// work ends: right after the route is appended, or when the work fails, is superseded, or
    /// finds the route already on top. The default, because it is the only order that survives a
    /// kill at any step: killed during the fetch, nothing durable names the envelope, so its
    /// replay at the next launch (the pending route, the initial notification) navigates; killed
    /// once the screen shows, the commit that came with the append keeps the replay out.
    case reserveThenCommit = "reserve-then-commit"
    /// Committed at receipt, before the work starts: the first article's literal order. A kill
    /// during the fetch loses the tap for good: the envelope is durably consumed, and the screen
    /// was never shown.
    case commitBeforeWork = "commit-before-work"
}

/// The pushes that check `path.last != route` before they append.
public struct TopOfStackGuard: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A button's push and an append the view makes through the path binding
    /// (`NavigationLink(value:)`): the second article's `push(_:)`.
    public static let buttonPushes = TopOfStackGuard(rawValue: 1 << 0)
    /// A route request's push, checked at the request and again when its work completes.
    public static let routedPushes = TopOfStackGuard(rawValue: 1 << 1)
    /// Both: a screen already on top is never pushed again, whoever pushes it.
    public static let everyPush: TopOfStackGuard = [.buttonPushes, .routedPushes]
}
