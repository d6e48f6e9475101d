import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// What the parent sends a timing fork: the workloads (a trace as a columns file of its timed
/// prefix only), how many of each one's events to time, the cases, and the fork's index (which
/// seeds its case order and layout).
struct TimingForkRequest: Codable, Sendable {
    var workloads: [ChildWorkload]
    /// Events timed per workload (the first ones), as the parent calibrated them; parallel to
    /// `workloads`.
    var timedEvents: [Int]
    var cases: [ChildCaseSpec]
    var repetitions: Int
    var batchSize: Int
    var seed: UInt64
    var fork: Int
}

/// What a timing fork writes back: every case's ns/event per repetition, in the order run.
struct TimingForkResponse: Codable, Sendable {
    struct Outcome: Codable, Sendable {
        var key: Int
        var samples: [Double]
    }

    var outcomes: [Outcome]
}

/// One timing fork: `repetitions + 1` rounds per workload (the first a discarded warm-up), each
/// running every case once in an order shuffled from the fork's seed.
enum TimingFork {
    /// One case ready to time: its result index, the case, and the events it runs on.
    struct Item {
        var key: Int
        var anyCase: _AnyCase
        var events: EventColumns
    }

    /// How long one fork may run. A full-size fork takes well under a minute; only a hung child
    /// reaches this.
    static let childTimeoutSeconds = 600.0

    /// The seed of the case order of `workload` in `fork`. Fork 0 keeps the order a single-process
    /// run always had.
    static func orderSeed(_ seed: UInt64, workload: Int, fork: Int) -> UInt64 {
        seed ^ DeterministicHashing.mix64(UInt64(workload) &+ 1) ^ (fork == 0 ? 0 : DeterministicHashing.mix64(UInt64(fork) << 32))
    }

    /// Times each group (one workload's cases) in turn. `report` is called before every timed
    /// run with the item's key, the round and the events it runs. Returns each key's samples and, if `keepBatches`,
    /// its latency batches of all timed rounds.
    static func measure(
        _ groups: [(workload: Int, items: [Item])], repetitions: Int, batchSize: Int, seed: UInt64, fork: Int,
        keepBatches: Bool, report: (_ key: Int, _ round: Int, _ events: Int) -> Void
    ) throws -> [Int: (samples: [Double], batches: [Double])] {
        var measured: [Int: (samples: [Double], batches: [Double])] = [:]
        for group in groups {
            var samples = [[Double]](repeating: [], count: group.items.count)
            var batches = [[Double]](repeating: [], count: group.items.count)
            var random = SplitMix64(seed: orderSeed(seed, workload: group.workload, fork: fork))
            for round in 0...repetitions {
                var order = Array(group.items.indices)
                order.shuffle(using: &random)
                for position in order {
                    let item = group.items[position]
                    if round > 0 { report(item.key, round, item.events.count) }
                    var roundBatches = round > 0 && keepBatches ? batches[position] : []
                    let nanoseconds = try item.anyCase._timed(item.events, 0, batchSize, &roundBatches)
                    if round > 0 {
                        samples[position].append(nanoseconds / Double(max(1, item.events.count)))
                        if keepBatches { batches[position] = roundBatches }
                    }
                }
            }
            for (position, item) in group.items.enumerated() {
                measured[item.key] = (samples[position], batches[position])
            }
        }
        return measured
    }

    /// The child's side: rebuilds the workloads' timed prefixes and the cases, then measures.
    ///
    /// Before building anything it shifts the heap and the stack by seeded amounts, so each fork
    /// lays its columns and strategies out at other addresses (in the spirit of Stabilizer):
    /// an alignment that happens to favour one case in one process averages out over the forks
    /// instead of biasing every sample of a run.
    static func run(_ request: TimingForkRequest, catalogue: StrategyCatalogue) throws -> TimingForkResponse {
        guard request.timedEvents.count == request.workloads.count, request.repetitions >= 1, request.batchSize >= 1 else {
            throw MeasurementError.invalidPlan("timing fork: malformed request")
        }
        var random = SplitMix64(seed: request.seed ^ DeterministicHashing.mix64(0x6c61_796f_7574 &+ UInt64(request.fork)))
        // Whole cache lines, up to 64 KiB: moves the small allocations that follow; the large
        // column buffers are page-aligned by the allocator either way.
        let heapPadding = [UInt8](repeating: 0, count: 64 * Int.random(in: 1...1_024, using: &random))
        let stackPadding = 16 * Int.random(in: 1...256, using: &random)
        let response = try withUnsafeTemporaryAllocation(byteCount: stackPadding, alignment: 16) { _ in
            try measureRequest(request, catalogue: catalogue)
        }
        withExtendedLifetime(heapPadding) {}
        return response
    }

    private static func measureRequest(_ request: TimingForkRequest, catalogue: StrategyCatalogue) throws -> TimingForkResponse {
        var groups: [(workload: Int, items: [Item])] = []
        for (workloadIndex, workload) in request.workloads.enumerated() {
            let specs = request.cases.filter { $0.workload == workloadIndex }
            guard !specs.isEmpty else { continue }
            let columns = try workload.makeColumns(limit: request.timedEvents[workloadIndex])
            let payloadColumns = columns.payloads()
            let items = try specs.map { spec throws -> Item in
                Item(key: spec.key, anyCase: try spec.makeCase(catalogue), events: spec.mode == .windowAlone ? payloadColumns : columns)
            }
            groups.append((workloadIndex, items))
        }
        let measured = try measure(
            groups, repetitions: request.repetitions, batchSize: request.batchSize, seed: request.seed, fork: request.fork,
            keepBatches: false, report: { _, _, _ in })
        return TimingForkResponse(outcomes: request.cases.map { .init(key: $0.key, samples: measured[$0.key]?.samples ?? []) })
    }
}
