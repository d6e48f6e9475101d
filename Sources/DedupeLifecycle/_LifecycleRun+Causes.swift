/// Which rule let each failure through. Every failure is booked exactly where it is counted, so
/// the causes of a column always add up to it. `Guides/Policies.md` § Causes.
extension _LifecycleRun {
    /// Why the consumed set let an envelope's handler run again.
    func reprocessingRule(_ slot: Int) -> FailureRule {
        // A store that keeps every write lost only a reservation the kill came before.
        if policy.reserveThenCommit, persistence == .afterEveryConsume, envelopes[slot].consumeOrigin == .beforeFetch,
           counts.relaunches > Int(envelopes[slot].consumedAtRelaunch) {
            return .retryAfterKill
        }
        if envelopes[slot].consumeOrigin != .none {
            // Consumed once, and the set no longer has it.
            guard counts.relaunches > Int(envelopes[slot].consumedAtRelaunch) else { return .consumedSetForgot }
            switch persistence {
            case .memory: return .memoryPersistence
            case .onBackground: return .lostSinceBackground
            case .afterEveryConsume: return .consumedSetForgot
            }
        }
        switch envelopes[slot].lastRun {
        case .earlyReturn: return .consumeOnSuccessOnly
        case .fetch: return .consumeAfterSuccess
        case .none: return .unexplained
        }
    }

    /// The consumed set stopped a delivery of `intent`: a setback when nothing else will show
    /// the intent's screen.
    mutating func suppressed(_ intent: Int32, envelope slot: Int, source: UInt16) {
        let index = Int(intent)
        guard !intents[index].served, !intents[index].fetchFailed, !isUnderWay(intent) else { return }
        let rule: FailureRule
        if envelopes[slot].consumedForIntent >= 0 && envelopes[slot].consumedForIntent != intent {
            rule = .pushSharedByIntents
        } else {
            switch envelopes[slot].consumeOrigin {
            case .earlyReturnNoHost: rule = .consumedOnNoHost
            case .beforeFetch: rule = .noRetryAfterConsume
            case .none, .earlyReturnUnroutable, .afterPush: rule = .unexplained
            }
        }
        intents[index].setbackRule = rule
        intents[index].setbackSource = source
    }

    /// What a kill mid-task means for its intent, until something replays its route.
    func killRule(_ task: Int) -> FailureRule {
        let envelope = tasks[task].envelope
        switch persistence {
        case .memory:
            return .memoryPersistence
        case .onBackground where savedPending.envelope != envelope:
            return .lostSinceBackground
        case .afterEveryConsume, .onBackground:
            // The pending route survives and replays at the cold launch: the consumed set stops
            // it when the envelope was consumed before the fetch, and not if that was a
            // reservation (reserve-then-commit), which the kill lost.
            return envelope >= 0 && envelopes[Int(envelope)].consumeOrigin == .beforeFetch && !policy.reserveThenCommit
                ? .noRetryAfterConsume : .unexplained
        }
    }

    /// The rule behind a failure a task's push made, when the task itself explains it: it should
    /// never have started (a handler run the consumed set should have stopped, a checkout the
    /// loading guard should have ignored), or it outlived a newer fetch the cancel switch would
    /// have stopped it for.
    func taskRule(_ task: Int32, intent: Int32) -> FailureRule? {
        guard task >= 0 else { return nil }
        if let rule = tasks[Int(task)].startRule { return rule }
        if tasks[Int(task)].outlived { return .keepInFlight }
        if tasks[Int(task)].kind == .detailFetch && intent >= 0 && intents[Int(intent)].servedByOwnPush {
            return .secondEnvelopeForOneIntent
        }
        return nil
    }

    /// A push of the screen already on top.
    func duplicateRule(task: Int32, intent: Int32, owner: UInt8, guarded: Bool) -> FailureRule {
        if guarded {
            if !policy.lastRouteGuard { return .noLastRouteGuard }
            // The guard saw only its owner's path.
            return policy.singlePathOwner ? .unexplained : .twoPathOwners
        }
        // The router's push: no top-of-stack check, so a wanted re-tap of the screen on top
        // stacks it again, unless this task or the one that pushed the top screen is itself a
        // second handling or should have been cancelled.
        if let rule = taskRule(task, intent: intent) { return rule }
        if topPushTask >= 0 {
            if let rule = tasks[Int(topPushTask)].startRule { return rule }
            if tasks[Int(topPushTask)].outlived { return .keepInFlight }
        }
        return .unguardedRouterPush
    }

    /// A push for an older intent over the screen the newest intent wants.
    func staleRule(task: Int32, newest: Int) -> FailureRule {
        if let rule = taskRule(task, intent: task >= 0 ? tasks[Int(task)].intent : -1), rule != .secondEnvelopeForOneIntent {
            return rule
        }
        // The newest intent never started a fetch that would have cancelled this task.
        if let rule = intents[newest].setbackRule { return rule }
        if task >= 0 && tasks[Int(task)].kind == .checkout || !intents[newest].viaRouter { return .taskOutlivesNewerNavigation }
        return .unexplained
    }
}

/// Failure counts by (column, mechanism, rule): a short list searched linearly, since one run
/// has few distinct causes, and a value that `verify` copies cheaply.
struct _CauseTally: Equatable {
    private(set) var failures: [LifecycleFailure] = []
    private(set) var sources: [UInt16] = []
    private(set) var rules: [FailureRule] = []
    private(set) var counts: [Int] = []

    mutating func book(_ failure: LifecycleFailure, source: UInt16, rule: FailureRule) {
        for index in counts.indices where failures[index] == failure && sources[index] == source && rules[index] == rule {
            counts[index] += 1
            return
        }
        failures.append(failure)
        sources.append(source)
        rules.append(rule)
        counts.append(1)
    }

    /// Whether every failure of `failure` has a rule in `allowed`.
    func all(_ failure: LifecycleFailure, in allowed: (FailureRule) -> Bool) -> Bool {
        failures.indices.allSatisfy { failures[$0] != failure || allowed(rules[$0]) }
    }

    /// The rules booked for `failure`, in booking order, each once.
    func rules(of failure: LifecycleFailure) -> [FailureRule] {
        var found: [FailureRule] = []
        for index in failures.indices where failures[index] == failure && !found.contains(rules[index]) {
            found.append(rules[index])
        }
        return found
    }

    /// The tally with labels, sorted by column, mechanism and rule.
    func labelled(_ sourceLabels: [String]) -> [FailureCause] {
        let causes = counts.indices.map { index in
            FailureCause(
                failure: failures[index], mechanism: Int(sources[index]) < sourceLabels.count ? sourceLabels[Int(sources[index])] : "",
                rule: rules[index], count: counts[index])
        }
        let order = LifecycleFailure.allCases
        return causes.sorted {
            (order.firstIndex(of: $0.failure)!, $0.mechanism, $0.rule.rawValue) < (order.firstIndex(of: $1.failure)!, $1.mechanism, $1.rule.rawValue)
        }
    }
}
