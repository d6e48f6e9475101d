import DedupeWorkloads

extension CorrectnessResult {
    /// Scores one run's decisions against the workload's truth, replaying them on a model of the
    /// navigation path: for `two-layer-guarded` the path its guard saw (``_RoutedPath``: the user
    /// goes back after a dwell), otherwise a path that only grows. Definitions (see `Guides/Harness.md` § Scoring):
    ///
    /// - *events*: events the mode takes as input (all but emits in `window-alone`), skipped
    ///   emits included.
    /// - *scored*: of those, the ones whose truth is `new` or `dup` (`newEvents`, `dupEvents`),
    ///   skipped emits included, so every mode has the same denominators on one workload.
    /// - *false drop*: truth `new`, suppressed by the window, the consumed set or the loading
    ///   guard. The top-of-stack guard's drops are not false drops: it drops only a route already
    ///   on top of the path, so the user already has the screen they asked for (per-intent
    ///   truth). A skipped emit is neither a false drop nor a missed duplicate: it is counted
    ///   only as skipped (its payload's suppression was already scored).
    /// - *missed duplicate*: truth `dup`, navigated.
    /// - *duplicate screen*: a navigation pushing the route already on top of the path.
    /// - A relaunch is never scored; it empties the path.
    /// - *lost navigation*: a `new` event (skipped emits included) after which the route on top
    ///   of the path is not the event's route: the user did not get the screen they asked for.
    ///   A `new` event suppressed while its route is already on top is not lost.
    ///
    /// - Complexity: O(*n*) in the number of events.
    init(decisions: [UInt8], columns: EventColumns, run: _CorrectnessRun) {
        var events = 0, newEvents = 0, dupEvents = 0, falseDrops = 0, missedDuplicates = 0, skippedEmits = 0
        var duplicateScreens = 0, lostNavigations = 0
        var byWindow = 0, byConsumedSet = 0, byGuard = 0
        // The same dwell times as the guarded loop, so both see the same pops; unguarded, so a
        // duplicate the decisions let through is pushed and counted.
        var path = _RoutedPath(guardsTop: false)
        let pops = run.poppingPath
        for i in decisions.indices {
            if columns.isRelaunch(i) {
                path.relaunch()
                continue
            }
            guard let decision = CaseDecision(rawValue: decisions[i]), decision != .notApplicable else { continue }
            events += 1
            let route = columns.routes[i]
            let truth = columns.truths[i]
            if pops { path.advance(to: columns.times[i]) }
            switch decision {
            case .navigated:
                if route == path.top { duplicateScreens += 1 }
                path.push(route, at: columns.times[i])
            case .suppressedByWindow: byWindow += 1
            case .suppressedByConsumedSet: byConsumedSet += 1
            case .suppressedByGuard, .suppressedByLoadingGuard: byGuard += 1
            case .skippedEmit: skippedEmits += 1
            case .notApplicable: break
            }
            if truth == .new && path.top != route { lostNavigations += 1 }
            switch truth {
            case .new:
                newEvents += 1
                if decision.dropsTheEvent { falseDrops += 1 }
            case .dup:
                dupEvents += 1
                if decision == .navigated { missedDuplicates += 1 }
            case .unknown:
                break
            }
        }
        self.init(
            events: events, newEvents: newEvents, dupEvents: dupEvents, falseDrops: falseDrops,
            missedDuplicates: missedDuplicates, skippedEmits: skippedEmits, duplicateScreens: duplicateScreens,
            lostNavigations: lostNavigations, falseDropRate: Rate(wilson: falseDrops, of: newEvents),
            missedDuplicateRate: Rate(wilson: missedDuplicates, of: dupEvents), suppressedByWindow: byWindow,
            suppressedByConsumedSet: byConsumedSet, suppressedByGuard: byGuard, windowEvictions: run.windowEvictions,
            consumedEvictions: run.consumedEvictions, theoreticalFalsePositiveRate: run.theoreticalFalsePositiveRate,
            measuredFalsePositiveRate: run.measuredFalsePositiveRate)
    }
}
