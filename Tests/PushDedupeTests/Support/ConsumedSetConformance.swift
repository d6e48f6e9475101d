import PushDedupe
import Testing

/// What a consumed set promises, checked by `checkConsumedSetConformance`.
struct ConsumedSetContract {
    /// When set, every answer, `count` and `evictions` equal `ReferenceConsumedSet` with this
    /// policy.
    var exact: ReferenceConsumedSet.Policy?
    /// A never-consumed id always gets `true`.
    var neverFalseDrop: Bool
    /// The set never looks at `now`, so `contains` must predict `consume` on every step, not only
    /// when time stood still.
    var ignoresTime = false
    /// Whether a repeat may be accepted (a missed duplicate), given nanoseconds since the id was
    /// last accepted and whether `evictions` grew since then.
    var mayMissRepeat: (_ ageNanoseconds: Int64, _ evictedSince: Bool) -> Bool

    static func exact(_ policy: ReferenceConsumedSet.Policy) -> ConsumedSetContract {
        ConsumedSetContract(exact: policy, neverFalseDrop: true, ignoresTime: true) { _, evicted in evicted }
    }
}

/// One consume, as the checker replays it.
struct ConsumeOperation: CustomStringConvertible {
    var id: EnvelopeID
    var time: Timestamp
    var description: String { "consume(\(id.low), t=\(time.nanoseconds))" }
}

/// Drives `S` through `operations` and checks every answer against the contract. Also checks
/// that `contains` predicts `consume` whenever time has not moved. Returns the first mismatch.
func firstConsumedSetViolation<S: ConsumedSet>(
    _ type: S.Type, configuration: ConsumedSetConfiguration, contract: ConsumedSetContract,
    operations: [ConsumeOperation]
) -> String? {
    var set: S
    do {
        set = try S(configuration: configuration)
    } catch {
        return "init threw \(error)"
    }
    var reference = contract.exact.map { ReferenceConsumedSet(policy: $0) }
    var lastAccepted: [EnvelopeID: (time: Int64, evictions: Int)] = [:]
    var latest = Int64.min
    for (step, operation) in operations.enumerated() {
        let timeStoodStill = operation.time.nanoseconds <= latest
        latest = max(latest, operation.time.nanoseconds)
        let predicted = set.contains(operation.id)
        let accepted = set.consume(operation.id, at: operation.time)
        // Built only on a failure: formatting the configuration costs more than the consume.
        func context() -> String { "\(S.strategyID) \(configuration) step \(step) \(operation)" }
        if (timeStoodStill || contract.ignoresTime) && predicted == accepted {
            return "\(context()): contains said \(predicted) but consume accepted \(accepted)"
        }
        if var model = reference {
            let expected = model.consume(operation.id)
            reference = model
            if accepted != expected { return "\(context()): accepted \(accepted), model \(expected)" }
            if set.count != model.count { return "\(context()): count \(set.count), model \(model.count)" }
            if set.evictions != model.evictions {
                return "\(context()): evictions \(set.evictions), model \(model.evictions)"
            }
        }
        if let previous = lastAccepted[operation.id] {
            if accepted && !contract.mayMissRepeat(latest - previous.time, set.evictions > previous.evictions) {
                return "\(context()): accepted a repeat \(latest - previous.time) ns after it was consumed"
            }
        } else if !accepted && contract.neverFalseDrop {
            return "\(context()): false drop of a never-consumed id"
        }
        if accepted { lastAccepted[operation.id] = (latest, set.evictions) }
        if set.count < 0 || set.footprint < 0 || set.evictions < 0 {
            return "\(context()): negative count, footprint or evictions"
        }
    }
    return nil
}

func randomConsumeOperations(
    count: Int, universe: Int, meanStepNanoseconds: Int64, using random: inout SplitMix64
) -> [ConsumeOperation] {
    var time: Int64 = 1_000_000_000
    var operations: [ConsumeOperation] = []
    operations.reserveCapacity(count)
    for _ in 0..<count {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: break
        case 2: time -= Int64.random(in: 1...meanStepNanoseconds, using: &random)
        default: time += Int64.random(in: 0...(2 * meanStepNanoseconds), using: &random)
        }
        // Ids share their fixed UUIDv4 bits, as real envelopes do.
        let id = EnvelopeID(high: 0x4000, low: 0x8000_0000_0000_0000 | UInt64(Int.random(in: 0..<max(1, universe), using: &random)))
        operations.append(ConsumeOperation(id: id, time: Timestamp(nanoseconds: time)))
    }
    return operations
}

/// Every sequence of `length` consumes over `universe` ids, one time step apart.
func exhaustiveConsumeOperations(length: Int, universe: Int, stepNanoseconds: Int64) -> [[ConsumeOperation]] {
    var sequences: [[ConsumeOperation]] = [[]]
    for step in 0..<length {
        sequences = sequences.flatMap { sequence in
            (0..<universe).map { index in
                sequence + [ConsumeOperation(
                    id: EnvelopeID(high: 0x4000, low: 0x8000_0000_0000_0000 | UInt64(index)),
                    time: Timestamp(nanoseconds: 1_000_000_000 + Int64(step) * stepNanoseconds))]
            }
        }
    }
    return sequences
}

/// The shared conformance suite for one consumed-set type: every sequence of 7 consumes over 4
/// ids at small capacities, then thousands of seeded random sequences.
func checkConsumedSetConformance<S: ConsumedSet>(
    _ type: S.Type,
    contract: (ConsumedSetConfiguration) -> ConsumedSetContract,
    configurations: [ConsumedSetConfiguration],
    randomSequences: Int = 2_000,
    exhaustiveLength: Int = 7,
    meanStepNanoseconds: Int64 = 10_000_000,
    seed: UInt64 = 0xc0ffee
) {
    for configuration in configurations where configuration.capacity <= 3 {
        for operations in exhaustiveConsumeOperations(length: exhaustiveLength, universe: 4, stepNanoseconds: meanStepNanoseconds) {
            if let violation = firstConsumedSetViolation(
                S.self, configuration: configuration, contract: contract(configuration), operations: operations)
            {
                Issue.record("\(violation)\nsequence: \(operations)")
                return
            }
        }
    }
    var random = SplitMix64(seed: seed)
    for index in 0..<randomSequences {
        let configuration = configurations[index % configurations.count]
        let operations = randomConsumeOperations(
            count: Int.random(in: 1...200, using: &random),
            universe: Int.random(in: 1...max(2, 3 * configuration.capacity), using: &random),
            meanStepNanoseconds: meanStepNanoseconds, using: &random)
        if let violation = firstConsumedSetViolation(
            S.self, configuration: configuration, contract: contract(configuration), operations: operations)
        {
            Issue.record("\(violation)\nsequence: \(operations)")
            return
        }
    }
}
