import DedupeHarness

/// One strategy choice with its figures summed or averaged over the workloads it ran on.
public struct Candidate: Sendable, Equatable {
    public var window: String?
    public var consumed: String?
    public var parameters: CaseParameters
    /// The layers' declared guarantees and the parameters they read (from the first case).
    public var windowGuarantee: GuaranteeRecord?
    public var consumedGuarantee: GuaranteeRecord?
    public var windowReads: [StrategyParameter]?
    public var consumedReads: [StrategyParameter]?
    /// Distinct workloads the figures cover.
    public var workloads: Int
    public var newEvents: Int
    public var dupEvents: Int
    public var falseDrops: Int
    public var missedDuplicates: Int
    /// Errors matched event by event against the reference case on the same events, summed over
    /// workloads (never netted): wanted navigations this choice drops that the published code
    /// keeps, duplicates it lets through that the published code stops, and the reverse two.
    public var newlyDropped: Int
    public var newlyMissed: Int
    public var recoveredNavigations: Int
    public var newlyBlockedDuplicates: Int
    /// Workloads whose cases had no reference to match with.
    public var unmatchedWorkloads: Int
    /// Peak live bytes on the largest workload (by events) with a memory figure: the allocator's
    /// peak, else its live bytes, else the structural footprint.
    public var memoryBytes: Double?
    /// The workload `memoryBytes` was measured on.
    public var memoryWorkload: String?
    /// Geometric mean over workloads of the median ns/event.
    public var nanosecondsPerEvent: Double?
    /// Geometric mean over workloads of the median ratio to the reference row.
    public var ratioToReference: Double?

    /// `hash-deque + set`, or `hash-deque + recent-ids (N = 10)` for an SDK set.
    public var label: String {
        CaseLabel.text(window: window, consumed: consumed, parameters: parameters, separator: " + ")
    }

    /// Same strategies (whatever the parameters).
    func sameStrategies(as other: Candidate) -> Bool {
        window == other.window && consumed == other.consumed
    }

    /// The guarantee classes the candidate's layers declared; `nil` for a layer without a record.
    var guaranteeClasses: [String?] {
        var classes: [String?] = []
        if window != nil { classes.append(windowGuarantee?.guaranteeClass.rawValue) }
        if consumed != nil { classes.append(consumedGuarantee?.guaranteeClass.rawValue) }
        return classes
    }

    /// Groups `cases` by strategies and parameters into candidates, in first-seen order. Rows
    /// restored from snapshots are left out: they repeat a workload's `memory` row under another
    /// setting, and the persistence section compares the two.
    ///
    /// - Complexity: O(cases).
    static func aggregate(_ allCases: [CaseResult], window keepWindow: Bool = true, consumed keepConsumed: Bool = true) -> [Candidate] {
        let cases = allCases.filter { !$0.isSnapshotPersistence }
        struct Key: Hashable {
            var window: String?
            var consumed: String?
            var parameters: CaseParameters
        }
        var order: [Key] = []
        var groups: [Key: [CaseResult]] = [:]
        for result in cases {
            let key = Key(
                window: keepWindow ? result.window : nil, consumed: keepConsumed ? result.consumed : nil,
                parameters: result.parameters)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(result)
        }
        return order.map { key in
            let members = groups[key]!
            let scored = members.compactMap(\.correctness)
            let matched = scored.compactMap(\.matched)
            let measured = members.filter { $0.memory != nil }
            let largest = measured.max { a, b in
                (a.correctness?.events ?? 0, a.memoryFigure ?? 0) < (b.correctness?.events ?? 0, b.memoryFigure ?? 0)
            }
            let medians = members.compactMap { $0.timing?.medianNanosecondsPerEvent }
            let ratios = members.compactMap { $0.timing.flatMap { SampleStatistics.median($0.ratiosToReference) } }
            let first = members[0]
            return Candidate(
                window: key.window, consumed: key.consumed, parameters: key.parameters,
                windowGuarantee: key.window == nil ? nil : first.windowGuarantee,
                consumedGuarantee: key.consumed == nil ? nil : first.consumedGuarantee,
                windowReads: key.window == nil ? nil : first.windowReads,
                consumedReads: key.consumed == nil ? nil : first.consumedReads,
                workloads: Set(members.map(\.workload)).count,
                newEvents: scored.reduce(0) { $0 + $1.newEvents },
                dupEvents: scored.reduce(0) { $0 + $1.dupEvents },
                falseDrops: scored.reduce(0) { $0 + $1.falseDrops },
                missedDuplicates: scored.reduce(0) { $0 + $1.missedDuplicates },
                newlyDropped: matched.reduce(0) { $0 + $1.newlyDropped },
                newlyMissed: matched.reduce(0) { $0 + $1.newlyMissed },
                recoveredNavigations: matched.reduce(0) { $0 + $1.recoveredNavigations },
                newlyBlockedDuplicates: matched.reduce(0) { $0 + $1.newlyBlockedDuplicates },
                unmatchedWorkloads: scored.count - matched.count,
                memoryBytes: largest?.memoryFigure, memoryWorkload: largest?.workload,
                nanosecondsPerEvent: Statistics.geometricMean(medians),
                ratioToReference: Statistics.geometricMean(ratios))
        }
    }
}

extension CaseResult {
    /// The memory the reports rank by: the allocator's peak, else live bytes, else the footprint.
    var memoryFigure: Double? {
        memory.map { Double($0.peakBytes ?? $0.liveBytes ?? $0.footprintBytes) }
    }
}
