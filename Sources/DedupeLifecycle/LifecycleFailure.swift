/// A kind of failure the lifecycle simulator counts: one failure column of `policies.csv`, and
/// the property `dedupe-bench verify` checks it against. See `Guides/Policies.md` § Counts.
package enum LifecycleFailure: String, Sendable, CaseIterable, Codable {
    case duplicateScreens = "duplicate_screens"
    case lostNavigations = "lost_navigations"
    case reprocessedEnvelopes = "reprocessed_envelopes"
    case wrongScreens = "wrong_screens"
    case repushedAfterLeave = "repushed_after_leave"
    case overlappingTasks = "overlapping_tasks"

    /// The property a run with none of these failures has, as `verify` names it.
    package var property: String {
        switch self {
        case .duplicateScreens: "no-duplicate-screen"
        case .lostNavigations: "no-lost-navigation"
        case .reprocessedEnvelopes: "no-envelope-handled-twice"
        case .wrongScreens: "no-wrong-screen"
        case .repushedAfterLeave: "no-repush-after-leave"
        case .overlappingTasks: "at-most-one-task-in-flight"
        }
    }

    /// The column's value in `counts`.
    package func count(in counts: LifecycleCounts) -> Int {
        switch self {
        case .duplicateScreens: counts.duplicateScreens
        case .lostNavigations: counts.lostNavigations
        case .reprocessedEnvelopes: counts.reprocessedEnvelopes
        case .wrongScreens: counts.wrongScreens
        case .repushedAfterLeave: counts.repushedAfterLeave
        case .overlappingTasks: counts.overlappingTasks
        }
    }
}

/// The rule that let a counted failure through: a switch turned off, a trade-off the articles
/// state, the persistence under test, the identity of envelopes, or a limit of the model.
/// `Guides/Policies.md` § Causes explains each.
package enum FailureRule: String, Sendable, CaseIterable, Codable {
    // Switches off: the variant of the same name.
    case consumeAfterSuccess = "consume-after-success"
    case consumeOnSuccessOnly = "consume-on-success-only"
    case keepInFlight = "keep-in-flight"
    case noLastRouteGuard = "no-last-route-guard"
    case noLoadingGuard = "no-loading-guard"
    case twoPathOwners = "two-path-owners"
    // Trade-offs the first article states.
    /// Layer 1 dropped a wanted delivery for a screen seen within the window (a re-tap inside it).
    case windowFalseDrop = "window-false-drop"
    /// `host.pushDetail` has no top-of-stack check: a wanted re-tap of the screen on top stacks it
    /// again (the article's table passes "another notification for the same screen, later").
    case unguardedRouterPush = "unguarded-router-push"
    /// The handler consumed a route it could not show for want of a host; the article leaves
    /// retries to a separate policy.
    case consumedOnNoHost = "consumed-on-no-host"
    /// The envelope was consumed before a fetch that never finished (the process died); the
    /// article does not retry ("소비 후 처리").
    case noRetryAfterConsume = "no-retry-after-consume"
    /// Under reserve-then-commit, the process died before the fetch's exit committed its
    /// reservation, so the replay runs the handler again: the retry it trades for the lost tap.
    case retryAfterKill = "retry-after-kill"
    // Persistence (the articles keep everything in memory and never consider process death).
    /// The store keeps nothing across a kill: the consumed set and the pending route are gone.
    case memoryPersistence = "memory-persistence"
    /// What changed after the last `background` save was lost at the kill.
    case lostSinceBackground = "lost-since-background"
    // Identity and layers.
    /// A second delivery of an intent already shown became a new envelope and passed the window.
    case secondEnvelopeForOneIntent = "second-envelope-for-one-intent"
    /// One push id delivered for two intents: the consumed set stops the later one.
    case pushSharedByIntents = "push-shared-by-intents"
    /// A bounded or time-bounded consumed set forgot the id.
    case consumedSetForgot = "consumed-set-forgot"
    // Limits of the model.
    /// A task of one flow (a fetch, a checkout) completed after a newer navigation of another
    /// flow, which the articles' cancel does not reach.
    case taskOutlivesNewerNavigation = "task-outlives-newer-navigation"
    /// A tap the workload labels a duplicate came after the user left the screen (or the process
    /// died with it): in the app, the user asking again.
    case tapAfterLeave = "tap-after-leave"
    /// No rule accounts for it: a defect of the model or of the policy.
    case unexplained

    /// How the rule is reported.
    package enum Category: String, Sendable, Codable {
        /// A published switch turned off (or the seventh switch left off by the variant).
        case switchOff = "switch-off"
        /// A trade-off the articles state.
        case tradeOff = "trade-off"
        /// The persistence under test.
        case persistence
        /// How envelopes are identified, or what a bounded set forgets.
        case identity
        /// A limit of the model, explained in the guide.
        case model
        case unexplained
    }

    package var category: Category {
        switch self {
        case .consumeAfterSuccess, .consumeOnSuccessOnly, .keepInFlight, .noLastRouteGuard, .noLoadingGuard, .twoPathOwners:
            .switchOff
        case .windowFalseDrop, .unguardedRouterPush, .consumedOnNoHost, .noRetryAfterConsume, .retryAfterKill: .tradeOff
        case .memoryPersistence, .lostSinceBackground: .persistence
        case .secondEnvelopeForOneIntent, .pushSharedByIntents, .consumedSetForgot: .identity
        case .taskOutlivesNewerNavigation, .tapAfterLeave: .model
        case .unexplained: .unexplained
        }
    }
}

/// How many failures of one column one mechanism produced through one rule.
package struct FailureCause: Codable, Sendable, Hashable {
    /// The failure column, e.g. `wrong_screens`.
    package var failure: LifecycleFailure
    /// The source label of the input that produced it: `button`, `pending_route`, `retap`,
    /// `cold_launch`…
    package var mechanism: String
    package var rule: FailureRule
    package var count: Int

    package init(failure: LifecycleFailure, mechanism: String, rule: FailureRule, count: Int) {
        self.failure = failure
        self.mechanism = mechanism
        self.rule = rule
        self.count = count
    }
}
