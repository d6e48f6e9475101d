/// What one simulated run did, judged per intent. See `Guides/Policies.md` § Counts.
package struct LifecycleCounts: Codable, Sendable, Equatable {
    /// User intents in the script.
    package var intents = 0
    /// Screens appended to the path.
    package var pushes = 0
    /// Pushes of the route already on top: the same screen twice in a row.
    package var duplicateScreens = 0
    /// Routable intents whose screen never reached the top, through whichever task, and that
    /// were not superseded by a newer intent while under way, for a reason other than a failed
    /// fetch. Intents the app cannot route (no tab, tab disabled) want nothing and are never lost.
    package var lostNavigations = 0
    /// Envelopes whose route handler ran more than once.
    package var reprocessedEnvelopes = 0
    /// Pushes of a screen other than the one the latest intent wants (a stale completion over a
    /// newer intent's screen), or of a second, different screen for an intent already served
    /// (the second order's receipt).
    package var wrongScreens = 0
    /// Pushes for an intent whose screen the user had already gone back from (or lost with the
    /// process).
    package var repushedAfterLeave = 0
    /// Tasks started while another live (not cancelled) task of the same kind ran: a second
    /// detail fetch beside the first, a second checkout beside the first.
    package var overlappingTasks = 0
    /// Async tasks started: detail fetches and checkouts.
    package var tasksStarted = 0
    /// Intents not served because their fetch or checkout failed (kept apart from
    /// `lostNavigations`: no dedupe policy causes or prevents it).
    package var fetchFailures = 0

    /// How the started tasks ended; they always add up to `tasksStarted`.
    package var tasksCompleted = 0
    package var tasksFailed = 0
    package var tasksCancelled = 0
    /// Tasks in flight when the process died.
    package var tasksKilled = 0
    /// Tasks a scripted script never ended (always 0 with drawn latencies).
    package var tasksUnfinished = 0
    /// Payloads layer 1 dropped.
    package var suppressedByWindow = 0
    /// Handler entries the consumed set stopped.
    package var suppressedByConsumedSet = 0
    /// Appends the `path.last != route` guard stopped.
    package var suppressedByGuard = 0
    /// Router pushes the top-of-stack guard stopped (the seventh switch).
    package var suppressedByRouterGuard = 0
    /// Async-button taps ignored by the loading guard.
    package var ignoredTaps = 0
    /// Route handler runs that ended in an early return.
    package var earlyReturns = 0
    /// Relaunches: the process killed and started again.
    package var relaunches = 0

    package init() {}

    private enum CodingKeys: String, CodingKey {
        case intents, pushes, duplicateScreens, lostNavigations, reprocessedEnvelopes, wrongScreens, repushedAfterLeave
        case overlappingTasks, tasksStarted, fetchFailures, tasksCompleted, tasksFailed, tasksCancelled, tasksKilled
        case tasksUnfinished, suppressedByWindow, suppressedByConsumedSet, suppressedByGuard, suppressedByRouterGuard
        case ignoredTaps, earlyReturns, relaunches
    }

    /// The counts of the process-death model (`overlappingTasks`, `tasksKilled`, `tasksUnfinished`,
    /// `suppressedByRouterGuard`, `relaunches`) are optional in schema 2: results written before
    /// them read as 0, which is what that model did (it had no kill, no router guard).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        intents = try c.decode(Int.self, forKey: .intents)
        pushes = try c.decode(Int.self, forKey: .pushes)
        duplicateScreens = try c.decode(Int.self, forKey: .duplicateScreens)
        lostNavigations = try c.decode(Int.self, forKey: .lostNavigations)
        reprocessedEnvelopes = try c.decode(Int.self, forKey: .reprocessedEnvelopes)
        wrongScreens = try c.decode(Int.self, forKey: .wrongScreens)
        repushedAfterLeave = try c.decode(Int.self, forKey: .repushedAfterLeave)
        tasksStarted = try c.decode(Int.self, forKey: .tasksStarted)
        fetchFailures = try c.decode(Int.self, forKey: .fetchFailures)
        tasksCompleted = try c.decode(Int.self, forKey: .tasksCompleted)
        tasksFailed = try c.decode(Int.self, forKey: .tasksFailed)
        tasksCancelled = try c.decode(Int.self, forKey: .tasksCancelled)
        suppressedByWindow = try c.decode(Int.self, forKey: .suppressedByWindow)
        suppressedByConsumedSet = try c.decode(Int.self, forKey: .suppressedByConsumedSet)
        suppressedByGuard = try c.decode(Int.self, forKey: .suppressedByGuard)
        ignoredTaps = try c.decode(Int.self, forKey: .ignoredTaps)
        earlyReturns = try c.decode(Int.self, forKey: .earlyReturns)
        overlappingTasks = try c.decodeIfPresent(Int.self, forKey: .overlappingTasks) ?? 0
        tasksKilled = try c.decodeIfPresent(Int.self, forKey: .tasksKilled) ?? 0
        tasksUnfinished = try c.decodeIfPresent(Int.self, forKey: .tasksUnfinished) ?? 0
        suppressedByRouterGuard = try c.decodeIfPresent(Int.self, forKey: .suppressedByRouterGuard) ?? 0
        relaunches = try c.decodeIfPresent(Int.self, forKey: .relaunches) ?? 0
    }
}
