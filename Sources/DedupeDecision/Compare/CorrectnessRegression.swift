import DedupeHarness

/// `compare`'s correctness gate: a case in both files that now drops more wanted navigations,
/// newly drops more, or newly misses more duplicates than in the baseline. Correctness is
/// deterministic for a seed, so any rise is a change of behaviour, not noise: it fails the gate
/// as a timing regression does, named with its case and the causes that rose.
package struct CorrectnessRegression: Sendable, Equatable {
    package var caseID: CaseID
    /// `false drops`, `newly dropped` or `newly missed`.
    package var figure: String
    package var baseline: Int
    package var current: Int
    /// The named causes whose counts rose, with the rise (`window drop … +3`).
    package var causes: [String]

    /// `CASE: false drops 13 → 25 (window drop of a screen not admitted within the window +12)`.
    package var text: String {
        let because = causes.isEmpty ? "" : " (\(causes.joined(separator: ", ")))"
        return "\(caseID.text): \(figure) \(baseline) → \(current)\(because)"
    }

    /// Every rise between the cases of `baseline` and `current` with the same id and parameters,
    /// in the baseline's order.
    ///
    /// - Complexity: O(cases + causes).
    package static func find(baseline: RunResults, current: RunResults) -> [CorrectnessRegression] {
        var currentByID: [CaseID: CaseResult] = [:]
        for result in current.cases where result.correctness != nil { currentByID[result.id] = result }
        var found: [CorrectnessRegression] = []
        for before in baseline.cases {
            guard let old = before.correctness, let after = currentByID[before.id], after.parameters == before.parameters,
                  let new = after.correctness else { continue }
            let figures: [(String, Int?, Int?, [String: Int], [String: Int])] = [
                ("false drops", old.falseDrops, new.falseDrops, old.droppedByCause, new.droppedByCause),
                ("newly dropped", old.matched?.newlyDropped, new.matched?.newlyDropped, old.droppedByCause, new.droppedByCause),
                ("newly missed", old.matched?.newlyMissed, new.matched?.newlyMissed, old.missedByCause, new.missedByCause),
            ]
            for (figure, was, now, causesBefore, causesNow) in figures {
                guard let was, let now, now > was else { continue }
                let risen = causesNow.keys.sorted().compactMap { cause -> String? in
                    let rise = causesNow[cause, default: 0] - causesBefore[cause, default: 0]
                    return rise > 0 ? "\(cause) +\(rise)" : nil
                }
                found.append(CorrectnessRegression(caseID: before.id, figure: figure, baseline: was, current: now, causes: risen))
            }
        }
        return found
    }
}
