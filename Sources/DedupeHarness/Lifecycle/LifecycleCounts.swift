/// What one simulated run did, judged per intent. See `Guides/Policies.md` § Counts.
public struct LifecycleCounts: Codable, Sendable, Equatable {
    /// User intents in the script.
    public var intents = 0
    /// Screens appended to the path.
    public var pushes = 0
    /// Pushes of the route already on top: the same screen twice in a row.
    public var duplicateScreens = 0
    /// Intents whose screen never reached the top while they were the latest intent, for a
    /// reason other than a failed fetch. Intents the app cannot route (no tab, tab disabled) want
    /// nothing and are never lost.
    public var lostNavigations = 0
    /// Envelopes whose route handler ran more than once.
    public var reprocessedEnvelopes = 0
    /// Pushes for an intent older than the latest one (a stale completion over a newer intent's
    /// screen), or of a second, different screen for an intent already served.
    public var wrongScreens = 0
    /// Pushes for an intent whose screen the user had already gone back from.
    public var repushedAfterLeave = 0
    /// Async tasks started: detail fetches and checkouts.
    public var tasksStarted = 0
    /// Intents not served because their fetch or checkout failed (kept apart from
    /// `lostNavigations`: no dedupe policy causes or prevents it).
    public var fetchFailures = 0

    /// How the started tasks ended; they always add up to `tasksStarted`.
    public var tasksCompleted = 0
    public var tasksFailed = 0
    public var tasksCancelled = 0
    /// Payloads layer 1 dropped.
    public var suppressedByWindow = 0
    /// Handler entries the consumed set stopped.
    public var suppressedByConsumedSet = 0
    /// Appends the `path.last != route` guard stopped.
    public var suppressedByGuard = 0
    /// Async-button taps ignored by the loading guard.
    public var ignoredTaps = 0
    /// Route handler runs that ended in an early return.
    public var earlyReturns = 0

    public init() {}
}
