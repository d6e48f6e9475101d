import DedupeWorkloads

/// A case's errors matched event by event against the reference case's decisions on the same
/// events: what choosing this case's strategies changes, direction by direction. Nothing is
/// netted: a case that drops 1,382 navigations the reference keeps and keeps 2,418 the reference
/// drops shows both counts.
package struct MatchedErrors: Sendable, Equatable {
    /// The case the decisions were matched with, e.g. `two-layer published-literal+set`.
    package var reference: String
    /// Truth `new`: the reference navigated, this case suppressed it.
    package var newlyDropped: Int
    /// Truth `dup`: the reference stopped it, this case let it through.
    package var newlyMissed: Int
    /// Truth `new`: the reference suppressed it, this case navigated.
    package var recoveredNavigations: Int
    /// Truth `dup`: the reference let it through, this case stopped it.
    package var newlyBlockedDuplicates: Int
    /// Unlabelled events (a recorded trace): the reference navigated, this case suppressed it,
    /// which is either a duplicate caught or a navigation lost; no truth says which.
    package var newlySuppressedUnlabelled = 0
    /// Unlabelled events: the reference suppressed it, this case navigated: a navigation
    /// recovered or a duplicate let through.
    package var newlyNavigatedUnlabelled = 0
    /// Exact two-sided sign test (McNemar) on every discordant pair: events this case gets wrong
    /// and the reference right (`newlyDropped + newlyMissed`) against the reverse.
    package var mcnemarP: Double
    /// The same test on wanted navigations only (`newlyDropped` against `recoveredNavigations`).
    package var wantedMcnemarP: Double

    package init(reference: String, newlyDropped: Int, newlyMissed: Int, recoveredNavigations: Int, newlyBlockedDuplicates: Int) {
        self.reference = reference
        self.newlyDropped = newlyDropped
        self.newlyMissed = newlyMissed
        self.recoveredNavigations = recoveredNavigations
        self.newlyBlockedDuplicates = newlyBlockedDuplicates
        mcnemarP = SignTest.twoSidedP(newlyDropped + newlyMissed, recoveredNavigations + newlyBlockedDuplicates)
        wantedMcnemarP = SignTest.twoSidedP(newlyDropped, recoveredNavigations)
    }
}

extension MatchedErrors {
    /// Matches `decisions` with `referenceDecisions` (raw ``CaseDecision`` values) on the same
    /// events. An event is an error when its truth is `new` and it was dropped (by the window, the
    /// set or the loading guard; neither the top-of-stack guard nor a skipped emit loses it, as in
    /// ``CorrectnessResult``), or its truth is `dup` and it navigated.
    ///
    /// - Complexity: O(*n*) in the events.
    package init(decisions: [UInt8], referenceDecisions: [UInt8], truths: [Truth], reference: String) {
        var dropped = 0, missed = 0, recovered = 0, blocked = 0, suppressed = 0, navigated = 0
        for i in decisions.indices {
            switch truths[i] {
            case .new:
                let wrong = Self.isDrop(decisions[i])
                let referenceWrong = Self.isDrop(referenceDecisions[i])
                if wrong && !referenceWrong { dropped += 1 } else if referenceWrong && !wrong { recovered += 1 }
            case .dup:
                let wrong = decisions[i] == CaseDecision.navigated.rawValue
                let referenceWrong = referenceDecisions[i] == CaseDecision.navigated.rawValue
                if wrong && !referenceWrong { missed += 1 } else if referenceWrong && !wrong { blocked += 1 }
            case .unknown:
                let wrong = Self.isSuppression(decisions[i])
                let referenceWrong = Self.isSuppression(referenceDecisions[i])
                if wrong && !referenceWrong { suppressed += 1 } else if referenceWrong && !wrong { navigated += 1 }
            }
        }
        self.init(reference: reference, newlyDropped: dropped, newlyMissed: missed,
                  recoveredNavigations: recovered, newlyBlockedDuplicates: blocked)
        newlySuppressedUnlabelled = suppressed
        newlyNavigatedUnlabelled = navigated
    }

    private static func isDrop(_ decision: UInt8) -> Bool {
        CaseDecision(rawValue: decision)?.dropsTheEvent ?? false
    }

    private static func isSuppression(_ decision: UInt8) -> Bool {
        isDrop(decision) || decision == CaseDecision.suppressedByGuard.rawValue
    }
}
