import DedupeMeasurement
import DedupeHarness

/// One strategy choice with its figures summed or averaged over the workloads it ran on.
package struct Candidate: Sendable, Equatable {
    /// What the candidate runs: mode, strategies with the parameters they read, identity and
    /// persistence. Its text is the candidate's one name.
    package var choice: StrategyChoice
    package var parameters: CaseParameters
    /// The layers' declared guarantees and the parameters they read (from the first case).
    package var windowGuarantee: GuaranteeRecord?
    package var consumedGuarantee: GuaranteeRecord?
    package var windowReads: [StrategyParameter]?
    package var consumedReads: [StrategyParameter]?
    /// The layers' Swift type names (`HashDequeWindow`), for the adoption code.
    package var windowType: String?
    package var consumedType: String?
    /// Distinct workloads the figures cover.
    package var workloads: Int
    package var newEvents: Int
    package var dupEvents: Int
    package var falseDrops: Int
    package var missedDuplicates: Int
    /// Errors matched event by event against the reference case on the same events, summed over
    /// workloads (never netted): wanted navigations this choice drops that the published code
    /// keeps, duplicates it lets through that the published code stops, and the reverse two.
    package var newlyDropped: Int
    package var newlyMissed: Int
    package var recoveredNavigations: Int
    package var newlyBlockedDuplicates: Int
    /// On unlabelled events: suppressed where the published code navigated, and the reverse.
    package var newlySuppressedUnlabelled = 0
    package var newlyNavigatedUnlabelled = 0
    /// Events with no truth label.
    package var unlabelledEvents = 0
    /// Events suppressed by each layer, summed.
    package var suppressedByWindow = 0
    package var suppressedByConsumedSet = 0
    /// Workloads whose cases had no reference to match with.
    package var unmatchedWorkloads: Int
    /// Missed duplicates and false drops by named cause, summed over the workloads.
    package var missedByCause: [String: Int] = [:]
    package var droppedByCause: [String: Int] = [:]
    /// Peak live bytes on the largest workload (by events) with a memory figure: the allocator's
    /// peak, else its live bytes, else the structural footprint.
    package var memoryBytes: Double?
    /// The workload `memoryBytes` was measured on.
    package var memoryWorkload: String?
    /// Geometric mean over workloads of the median ns/event.
    package var nanosecondsPerEvent: Double?
    /// The same, timing fork by timing fork (each fork's median per workload); `nil` with fewer
    /// than two forks. The speed step pairs two candidates' forks (``SpeedModel``).
    package var nanosecondsPerEventByFork: [Double]?
    /// Geometric mean over workloads of the median ratio to the reference row.
    package var ratioToReference: Double?
    /// The largest snapshot the choice's persistence wrote, in bytes (`nil` for `memory`).
    package var snapshotBytes: Int?
    /// Whether a case of the choice stopped before the end of its workload
    /// (``SnapshotResult/eventsRun``): its errors cover fewer events, so it is not ranked.
    package var ranOnPrefix = false

    /// Events this choice navigated, each one consume its store records, per event.
    package var consumesPerEvent: Double {
        let events = newEvents + dupEvents + unlabelledEvents
        guard events > 0 else { return 0 }
        return Double(events - suppressedByWindow - suppressedByConsumedSet) / Double(events)
    }

    /// The window and consumed-set entry ids, `nil` for a layer the mode does not use.
    package var window: String? { choice.window?.id }
    package var consumed: String? { choice.consumed?.id }

    /// The one name: ``StrategyChoice/text``.
    package var label: String { choice.text }

    /// Same strategies and parameters (whatever the identity and persistence).
    func sameStrategies(as other: Candidate) -> Bool {
        choice.base == other.choice.base
    }

    /// The guarantee classes the candidate's layers declared; `nil` for a layer without a record.
    package var guaranteeClasses: [String?] {
        var classes: [String?] = []
        if window != nil { classes.append(windowGuarantee?.guaranteeClass.rawValue) }
        if consumed != nil { classes.append(consumedGuarantee?.guaranteeClass.rawValue) }
        return classes
    }

    /// Why the candidate's false drops contradict its declared guarantees, or `nil`.
    package var guaranteeContradiction: String? {
        GuaranteeContradiction.reason(
            window: windowGuarantee, consumed: consumedGuarantee, wholePipeline: window != nil && consumed == nil
                && choice.mode.usesConsumedSet, droppedByCause: droppedByCause)
    }

    /// Groups `cases` by ``StrategyChoice`` into candidates, in first-seen order.
    ///
    /// A choice runs on every workload its base case (`minted`, `memory`) ran on. Where the
    /// harness ran no twin for the choice's identity or persistence (a workload without push ids
    /// or without relaunches, where it cannot change a decision), the candidate takes the row it
    /// has: `minted` for the identity, `memory` for the persistence. Speed and memory come from
    /// the base case: twins are scored, not timed.
    ///
    /// - Complexity: O(cases × distinct choices per workload).
    static func aggregate(_ cases: [CaseResult]) -> [Candidate] {
        var workloadOrder: [String] = []
        var byWorkload: [String: [StrategyChoice: CaseResult]] = [:]
        var choiceOrder: [StrategyChoice] = []
        var seenChoices: Set<StrategyChoice> = []
        for result in cases {
            let choice = result.choice
            if byWorkload[result.workload] == nil { workloadOrder.append(result.workload) }
            byWorkload[result.workload, default: [:]][choice] = result
            if seenChoices.insert(choice).inserted { choiceOrder.append(choice) }
        }
        return choiceOrder.map { choice in
            var members: [CaseResult] = []
            var bases: [CaseResult] = []
            for workload in workloadOrder {
                guard let rows = byWorkload[workload], let base = rows[choice.base] else { continue }
                bases.append(base)
                members.append(rows[choice] ?? fallback(choice, in: rows) ?? base)
            }
            return Candidate(choice: choice, members: members, bases: bases)
        }
    }

    /// The row standing in for `choice` on a workload that has no twin for it.
    private static func fallback(_ choice: StrategyChoice, in rows: [StrategyChoice: CaseResult]) -> CaseResult? {
        var stand = choice
        if rows[StrategyChoice(mode: choice.mode, window: choice.window, consumed: choice.consumed, identity: .pushID, persistence: .memory)] == nil {
            stand.identity = stand.identity.map { _ in .minted }
        }
        if rows[StrategyChoice(mode: choice.mode, window: choice.window, consumed: choice.consumed, identity: .minted, persistence: .afterEveryConsume)] == nil {
            stand.persistence = stand.persistence.map { _ in .memory }
        }
        return rows[stand]
    }
}

// In an extension, so the memberwise initialiser stays.
extension Candidate {
    init(choice: StrategyChoice, members: [CaseResult], bases: [CaseResult]) {
        let scored = members.compactMap(\.correctness)
        let matched = scored.compactMap(\.matched)
        let measured = bases.filter { $0.memory != nil }
        let largest = measured.max { a, b in
            (a.correctness?.events ?? 0, a.memoryFigure ?? 0) < (b.correctness?.events ?? 0, b.memoryFigure ?? 0)
        }
        let medians = bases.compactMap { $0.timing?.medianNanosecondsPerEvent }
        let ratios = bases.compactMap { $0.timing.flatMap { SampleStatistics.median($0.ratiosToReference) } }
        let first = members.first ?? bases[0]
        func sum(_ value: (CorrectnessResult) -> Int) -> Int { scored.reduce(0) { $0 + value($1) } }
        func merged(_ value: (CorrectnessResult) -> [String: Int]) -> [String: Int] {
            scored.reduce(into: [:]) { total, c in total.merge(value(c), uniquingKeysWith: +) }
        }
        self.init(
            choice: choice, parameters: first.parameters,
            windowGuarantee: choice.window == nil ? nil : first.windowGuarantee,
            consumedGuarantee: choice.consumed == nil ? nil : first.consumedGuarantee,
            windowReads: choice.window == nil ? nil : first.windowReads,
            consumedReads: choice.consumed == nil ? nil : first.consumedReads,
            windowType: choice.window == nil ? nil : first.windowType,
            consumedType: choice.consumed == nil ? nil : first.consumedType,
            workloads: Set(members.map(\.workload)).count,
            newEvents: sum(\.newEvents), dupEvents: sum(\.dupEvents), falseDrops: sum(\.falseDrops),
            missedDuplicates: sum(\.missedDuplicates),
            newlyDropped: matched.reduce(0) { $0 + $1.newlyDropped },
            newlyMissed: matched.reduce(0) { $0 + $1.newlyMissed },
            recoveredNavigations: matched.reduce(0) { $0 + $1.recoveredNavigations },
            newlyBlockedDuplicates: matched.reduce(0) { $0 + $1.newlyBlockedDuplicates },
            unmatchedWorkloads: scored.count - matched.count,
            missedByCause: merged(\.missedByCause), droppedByCause: merged(\.droppedByCause),
            memoryBytes: largest?.memoryFigure, memoryWorkload: largest?.workload,
            nanosecondsPerEvent: Statistics.geometricMean(medians),
            ratioToReference: Statistics.geometricMean(ratios),
            snapshotBytes: members.compactMap { $0.snapshot?.maximumBytes }.max())
        newlySuppressedUnlabelled = matched.reduce(0) { $0 + $1.newlySuppressedUnlabelled }
        newlyNavigatedUnlabelled = matched.reduce(0) { $0 + $1.newlyNavigatedUnlabelled }
        unlabelledEvents = scored.reduce(0) { $0 + ($1.events - $1.newEvents - $1.dupEvents) }
        suppressedByWindow = sum(\.suppressedByWindow)
        suppressedByConsumedSet = sum(\.suppressedByConsumedSet)
        ranOnPrefix = members.contains { $0.snapshot?.eventsRun != nil }
        nanosecondsPerEventByFork = Self.byFork(bases)
    }

    /// Per timing fork, the geometric mean over `cases` of the fork's median ns/event; `nil`
    /// unless every case was timed in the same number of forks, two or more.
    static func byFork(_ cases: [CaseResult]) -> [Double]? {
        let timings = cases.compactMap(\.timing)
        guard let forks = timings.first?.forks, forks >= 2, timings.count == cases.count,
              timings.allSatisfy({ $0.forks == forks && $0.samplesNanosecondsPerEvent.count % forks == 0 && !$0.samplesNanosecondsPerEvent.isEmpty })
        else { return nil }
        var medians = [[Double]](repeating: [], count: forks)
        for timing in timings {
            let perFork = timing.samplesNanosecondsPerEvent.count / forks
            for fork in 0..<forks {
                let block = Array(timing.samplesNanosecondsPerEvent[(fork * perFork)..<((fork + 1) * perFork)])
                guard let median = SampleStatistics.median(block) else { return nil }
                medians[fork].append(median)
            }
        }
        let means = medians.compactMap { Statistics.geometricMean($0) }
        return means.count == forks ? means : nil
    }
}

extension CaseResult {
    /// The memory the reports rank by: the allocator's peak, else live bytes, else the footprint.
    var memoryFigure: Double? {
        memory.map { Double($0.peakBytes ?? $0.liveBytes ?? $0.footprintBytes) }
    }
}
