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
    /// The largest measured live bytes (or structural footprint when unmeasured) over workloads.
    public var memoryBytes: Double?
    /// Geometric mean over workloads of the median ns/event.
    public var nanosecondsPerEvent: Double?
    /// Geometric mean over workloads of the median ratio to the reference row.
    public var ratioToReference: Double?

    /// `hash-deque + set`.
    public var label: String {
        [window, consumed].compactMap { $0 }.joined(separator: " + ")
    }

    /// Missed duplicates over duplicate events (0 when there were none).
    public var missedDuplicateRate: Double {
        dupEvents == 0 ? 0 : Double(missedDuplicates) / Double(dupEvents)
    }

    /// Groups `cases` by strategies and parameters into candidates, in first-seen order.
    ///
    /// - Complexity: O(cases).
    static func aggregate(_ cases: [CaseResult], window keepWindow: Bool = true, consumed keepConsumed: Bool = true) -> [Candidate] {
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
                memoryBytes: memory.max(),
                nanosecondsPerEvent: Statistics.geometricMean(medians),
                ratioToReference: Statistics.geometricMean(ratios))
        }
    }
}
