import DedupeWorkloads
import PushDedupe

/// The router and view policies of the two articles, each a switch. Six are on in the published
/// policy; the seventh, a top-of-stack check on the router's own push, and the eighth, committing
/// a consume durably only when its route is shown, are off in it, as in the published code. See
/// `Guides/Policies.md`.
package struct LifecyclePolicy: Sendable, Hashable {
    /// Mark the envelope consumed before the detail fetch starts (published), rather than after
    /// the push its fetch makes.
    package var consumeBeforeAsyncWork = true
    /// Mark the envelope consumed on every early return of the route handler (no target tab,
    /// tab disabled, no host) (published), rather than only when it navigates.
    package var consumeOnEveryReturn = true
    /// Cancel the previous `inFlightTask` when a new detail fetch starts, so the last routing
    /// wins (published).
    package var cancelInFlightTask = true
    /// `push(_:)` appends only when `path.last != route` (published).
    package var lastRouteGuard = true
    /// An async button is disabled while its task runs (`isCheckingOut`) (published).
    package var loadingGuard = true
    /// One owner of the navigation path (published); otherwise a parent and a child each keep
    /// their own path and both append for a shared destination.
    package var singlePathOwner = true
    /// The router's `host.pushDetail` skips a screen already on top. Off in the published code
    /// (a UIKit push is a command with no such check).
    package var routerTopGuard = false
    /// The consume before the fetch is a reservation, kept in memory, and written to the store
    /// only at the work's exit (shown, on top, failed, superseded, cancelled): a kill mid-fetch
    /// leaves the envelope unconsumed, so its replay shows the screen. Off in the published
    /// code, which writes at receipt.
    package var reserveThenCommit = false

    /// Every switch at its published setting.
    package static let published = LifecyclePolicy()

    package init() {}
}

/// A named policy: `published`, or the published policy with one switch flipped.
package enum PolicyVariant: String, Sendable, Codable, ClosedVocabulary {
    case published
    case consumeAfterSuccess = "consume-after-success"
    case consumeOnSuccessOnly = "consume-on-success-only"
    case keepInFlight = "keep-in-flight"
    case noLastRouteGuard = "no-last-route-guard"
    case noLoadingGuard = "no-loading-guard"
    case twoPathOwners = "two-path-owners"
    /// The variants that turn a switch on: the router guards its top of stack too, and it
    /// commits a consume only at its work's exit.
    case routerTopGuard = "router-top-guard"
    case reserveThenCommit = "reserve-then-commit"

    /// The policy this variant runs.
    package var policy: LifecyclePolicy {
        var policy = LifecyclePolicy.published
        switch self {
        case .published: break
        case .consumeAfterSuccess: policy.consumeBeforeAsyncWork = false
        case .consumeOnSuccessOnly: policy.consumeOnEveryReturn = false
        case .keepInFlight: policy.cancelInFlightTask = false
        case .noLastRouteGuard: policy.lastRouteGuard = false
        case .noLoadingGuard: policy.loadingGuard = false
        case .twoPathOwners: policy.singlePathOwner = false
        case .routerTopGuard: policy.routerTopGuard = true
        case .reserveThenCommit: policy.reserveThenCommit = true
        }
        return policy
    }

    /// One line on what the variant changes.
    package var summary: String {
        switch self {
        case .published: return "every switch at the articles' setting"
        case .consumeAfterSuccess: return "the envelope is marked consumed only after its detail fetch pushed"
        case .consumeOnSuccessOnly: return "the handler's early returns (no tab, tab disabled, no host) do not mark the envelope"
        case .keepInFlight: return "a new detail fetch does not cancel the one in flight"
        case .noLastRouteGuard: return "push appends without checking path.last != route"
        case .noLoadingGuard: return "the async button stays enabled while its task runs"
        case .twoPathOwners: return "a parent and a child each own a path and both append for a shared destination"
        case .routerTopGuard: return "the router's push skips a screen already on top (off in the published code)"
        case .reserveThenCommit: return "the envelope is reserved before the fetch and written to the store at its exit (off in the published code)"
        }
    }

    /// Whether the published policy has this variant's switch off, so the variant is the one
    /// that protects.
    package var turnsSwitchOn: Bool { self == .routerTopGuard || self == .reserveThenCommit }

    /// The failure the switch prevents: the variant shows it, or (for a switch the published
    /// policy has off) the published policy does.
    package var protectedFailure: LifecycleFailure? {
        switch self {
        case .published: nil
        case .consumeAfterSuccess, .consumeOnSuccessOnly: .reprocessedEnvelopes
        case .keepInFlight, .noLoadingGuard: .wrongScreens
        case .noLastRouteGuard, .twoPathOwners, .routerTopGuard: .duplicateScreens
        case .reserveThenCommit: .lostNavigations
        }
    }

    /// The rule a failure is booked under when this variant's switch let it through; the
    /// absence of a switch the published policy has off is a published trade-off
    /// (`unguarded-router-push`, `no-retry-after-consume`).
    package var rule: FailureRule? {
        switch self {
        case .published: nil
        case .consumeAfterSuccess: .consumeAfterSuccess
        case .consumeOnSuccessOnly: .consumeOnSuccessOnly
        case .keepInFlight: .keepInFlight
        case .noLastRouteGuard: .noLastRouteGuard
        case .noLoadingGuard: .noLoadingGuard
        case .twoPathOwners: .twoPathOwners
        case .routerTopGuard: .unguardedRouterPush
        case .reserveThenCommit: .noRetryAfterConsume
        }
    }

    package static let vocabularyName = "policy variant"
}

extension LifecyclePolicy {
    /// The shipped router core's configuration for this policy's router and view switches; one
    /// path owner or two is one core or two (`Guides/Router.md` § The policy simulator's
    /// switches). The two consume switches are the ledger's: the simulator's consumed set records
    /// every consume itself. Its store takes the core's commits: at receipt (the articles'), or
    /// at the work's exits under reserve-then-commit.
    var routerConfiguration: RouterConfiguration {
        var configuration = RouterConfiguration()
        configuration.consume = reserveThenCommit ? .reserveThenCommit : .commitBeforeWork
        configuration.cancelsSupersededWork = cancelInFlightTask
        configuration.topGuard = []
        if lastRouteGuard { configuration.topGuard.insert(.buttonPushes) }
        if routerTopGuard { configuration.topGuard.insert(.routedPushes) }
        configuration.loadingGuard = loadingGuard
        return configuration
    }
}
