import DedupeHarness

/// One strategy choice with its figures summed or averaged over every workload it ran on.
public struct Candidate: Sendable, Equatable {
    public var window: String?
    public var consumed: String?
    public var parameters: CaseParameters
    /// Distinct workloads the figures cover.
    public var workloads: Int
    public var newEvents: Int
    public var dupEvents: Int
    public var falseDrops: Int
    public var missedDuplicates: Int
    /// False drops beyond the published code's (`seed-literal` + `set`) on the same workload,
    /// summed over workloads: what choosing this structure costs. A window of a given length
    /// drops in-window re-taps by design; those the reference drops too are not counted here.
    /// Without a reference case for a workload, all of its false drops count.
    public var extraFalseDrops: Int
    /// Missed duplicates beyond the published code's on the same workload, likewise.
    public var extraMissedDuplicates: Int
    /// The largest measured live bytes (or structural footprint when unmeasured) over workloads.
    public var memoryBytes: Double?
    /// Geometric mean over workloads of the median ns/event.
    public var nanosecondsPerEvent: Double?
    /// Geometric mean over workloads of the median ratio to the reference row.
    public var ratioToReference: Double?

    /// `hash-deque + set`, or `hash-deque + recent-ids (N = 10)` for an SDK set.
    public var label: String {
        [window, consumed.map { SDKConstants.label($0, parameters) }].compactMap { $0 }.joined(separator: " + ")
    }

    /// Missed duplicates over duplicate events (0 when there were none).
    public var missedDuplicateRate: Double {
        dupEvents == 0 ? 0 : Double(missedDuplicates) / Double(dupEvents)
    }

    /// Missed duplicates beyond the reference's, over duplicate events.
    public var extraMissedDuplicateRate: Double {
        dupEvents == 0 ? 0 : Double(extraMissedDuplicates) / Double(dupEvents)
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
        let reference = referenceCorrectness(cases, window: keepWindow, consumed: keepConsumed)
        return order.map { key in
            let members = groups[key]!
            let scored = members.compactMap(\.correctness)
            var extraFalseDrops = 0
            var extraMissedDuplicates = 0
            for member in members {
                guard let correctness = member.correctness else { continue }
                let baseline = reference[member.workload]
                extraFalseDrops += max(0, correctness.falseDrops - (baseline?.falseDrops ?? 0))
                extraMissedDuplicates += max(0, correctness.missedDuplicates - (baseline?.missedDuplicates ?? 0))
            }
            let memory = members.compactMap { $0.memory.map { Double($0.liveBytes ?? $0.footprintBytes) } }
            let medians = members.compactMap { $0.timing?.medianNanosecondsPerEvent }
            let ratios = members.compactMap { $0.timing.flatMap { Statistics.median($0.ratiosToReference.sorted()) } }
            return Candidate(
                window: key.window, consumed: key.consumed, parameters: key.parameters,
                workloads: Set(members.map(\.workload)).count,
                newEvents: scored.reduce(0) { $0 + $1.newEvents },
                dupEvents: scored.reduce(0) { $0 + $1.dupEvents },
                falseDrops: scored.reduce(0) { $0 + $1.falseDrops },
                missedDuplicates: scored.reduce(0) { $0 + $1.missedDuplicates },
                extraFalseDrops: extraFalseDrops, extraMissedDuplicates: extraMissedDuplicates,
                memoryBytes: memory.max(),
                nanosecondsPerEvent: Statistics.geometricMean(medians),
                ratioToReference: Statistics.geometricMean(ratios))
        }
    }

    /// The published code's correctness per workload among `cases`: the case whose kept layers
    /// are the reference strategies, preferring the full reference pair when a layer is grouped
    /// away.
    ///
    /// - Complexity: O(cases).
    static func referenceCorrectness(_ cases: [CaseResult], window keepWindow: Bool, consumed keepConsumed: Bool) -> [String: CorrectnessResult] {
        var reference: [String: (correctness: CorrectnessResult, isFullPair: Bool)] = [:]
        for result in cases {
            guard let correctness = result.correctness,
                  !keepWindow || result.window == ReferenceStrategies.window,
                  !keepConsumed || result.consumed == ReferenceStrategies.consumed else { continue }
            let isFullPair = (result.window ?? ReferenceStrategies.window) == ReferenceStrategies.window
                && (result.consumed ?? ReferenceStrategies.consumed) == ReferenceStrategies.consumed
            if let existing = reference[result.workload], existing.isFullPair || !isFullPair { continue }
            reference[result.workload] = (correctness, isFullPair)
        }
        return reference.mapValues(\.correctness)
    }
}
