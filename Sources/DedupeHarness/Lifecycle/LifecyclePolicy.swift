/// The six router and view policies of the two articles, each a switch whose `true` is the
/// published setting. See `Guides/Policies.md`.
public struct LifecyclePolicy: Sendable, Hashable {
    /// Mark the envelope consumed before the detail fetch starts (published), rather than after
    /// it succeeded.
    public var consumeBeforeAsyncWork = true
    /// Mark the envelope consumed on every early return of the route handler (no target tab,
    /// tab disabled, no host) (published), rather than only when it navigates.
    public var consumeOnEveryReturn = true
    /// Cancel the previous `inFlightTask` when a new detail fetch starts, so the last routing
    /// wins (published).
    public var cancelInFlightTask = true
    /// `push(_:)` appends only when `path.last != route` (published).
    public var lastRouteGuard = true
    /// An async button is disabled while its task runs (`isCheckingOut`) (published).
    public var loadingGuard = true
    /// One owner of the navigation path (published); otherwise a parent and a child each keep
    /// their own path and both append for a shared destination.
    public var singlePathOwner = true

    /// Every switch at its published setting.
    public static let published = LifecyclePolicy()

    public init() {}
}

/// A named policy: `published`, or the published policy with one switch turned off.
public enum PolicyVariant: String, Sendable, CaseIterable, Codable {
    case published
    case consumeAfterSuccess = "consume-after-success"
    case consumeOnSuccessOnly = "consume-on-success-only"
    case keepInFlight = "keep-in-flight"
    case noLastRouteGuard = "no-last-route-guard"
    case noLoadingGuard = "no-loading-guard"
    case twoPathOwners = "two-path-owners"

    /// The policy this variant runs.
    public var policy: LifecyclePolicy {
        var policy = LifecyclePolicy.published
        switch self {
        case .published: break
        case .consumeAfterSuccess: policy.consumeBeforeAsyncWork = false
        case .consumeOnSuccessOnly: policy.consumeOnEveryReturn = false
        case .keepInFlight: policy.cancelInFlightTask = false
        case .noLastRouteGuard: policy.lastRouteGuard = false
        case .noLoadingGuard: policy.loadingGuard = false
        case .twoPathOwners: policy.singlePathOwner = false
        }
        return policy
    }

    /// One line on what the variant changes.
    public var summary: String {
        switch self {
        case .published: return "every switch at the articles' setting"
        case .consumeAfterSuccess: return "the envelope is marked consumed only after the detail fetch succeeded"
        case .consumeOnSuccessOnly: return "the handler's early returns (no tab, tab disabled, no host) do not mark the envelope"
        case .keepInFlight: return "a new detail fetch does not cancel the one in flight"
        case .noLastRouteGuard: return "push appends without checking path.last != route"
        case .noLoadingGuard: return "the async button stays enabled while its task runs"
        case .twoPathOwners: return "a parent and a child each own a path and both append for a shared destination"
        }
    }
}
