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

    /// Never a false drop, and never a missed repeat while it is at most the configuration's
    /// retention old: the promise of the sets that forget by time.
    static func catchesRepeatsWithinRetention(_ configuration: ConsumedSetConfiguration) -> ConsumedSetContract {
        let retention = configuration.retention.wholeNanoseconds
        return ConsumedSetContract(exact: nil, neverFalseDrop: true) { age, _ in age > retention }
    }
}

/// One consume, as the checker replays it.
struct ConsumeOperation: CustomStringConvertible {
    var id: EnvelopeID
    var time: Timestamp
    var description: String { "consume(\(id.low), t=\(time.nanoseconds))" }
}

/// The checker's state after some consumes: the set, the model, and what the contract
/// remembers. A value, so that the exhaustive pass copies it after each prefix instead of
/// replaying the prefix for every sequence that starts with it.
struct ConsumedSetReplay<S: ConsumedSet> {
    var set: S
    let configuration: ConsumedSetConfiguration
    let contract: ConsumedSetContract
    var reference: ReferenceConsumedSet?
    var lastAccepted: [EnvelopeID: (time: Int64, evictions: Int)] = [:]
    var latest = Int64.min
    var step = 0

    init(configuration: ConsumedSetConfiguration, contract: ConsumedSetContract) throws {
        set = try S(configuration: configuration)
        self.configuration = configuration
        self.contract = contract
        reference = contract.exact.map { ReferenceConsumedSet(policy: $0) }
    }

    /// Consumes `operation` and checks the answer against the contract, and that `contains`
    /// predicted it whenever time has not moved; returns the mismatch's description, or `nil`.
    mutating func consume(_ operation: ConsumeOperation) -> String? {
        defer { step += 1 }
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
        return nil
    }
}

/// Drives `S` through `operations` and checks every answer against the contract. Also checks
/// that `contains` predicts `consume` whenever time has not moved. Returns the first mismatch.
func firstConsumedSetViolation<S: ConsumedSet>(
    _ type: S.Type, configuration: ConsumedSetConfiguration, contract: ConsumedSetContract,
    operations: [ConsumeOperation]
) -> String? {
    var replay: ConsumedSetReplay<S>
    do {
        replay = try ConsumedSetReplay(configuration: configuration, contract: contract)
    } catch {
        return "init threw \(error)"
    }
    for operation in operations {
        if let violation = replay.consume(operation) { return violation }
    }
    return nil
}

/// Checks every sequence of `length` consumes over `universe` ids, one time step apart, as
/// `firstConsumedSetViolation` would check each one from a fresh set, but replaying each shared
/// prefix once: the state after a prefix is copied for every continuation but the last, which
/// goes on in place, so both the copy-on-write path and the in-place path run. Returns the first
/// mismatch with its sequence, or `nil`.
func firstExhaustiveConsumedSetViolation<S: ConsumedSet>(
    _ type: S.Type, configuration: ConsumedSetConfiguration, contract: ConsumedSetContract,
    length: Int, universe: Int, stepNanoseconds: Int64
) -> String? {
    var sequence: [ConsumeOperation] = []
    func explore(_ replay: inout ConsumedSetReplay<S>) -> String? {
        guard sequence.count < length else { return nil }
        let time = Timestamp(nanoseconds: 1_000_000_000 + Int64(sequence.count) * stepNanoseconds)
        for index in 0..<universe {
            let operation = ConsumeOperation(id: EnvelopeID(high: 0x4000, low: 0x8000_0000_0000_0000 | UInt64(index)), time: time)
            sequence.append(operation)
            defer { sequence.removeLast() }
            var copy: ConsumedSetReplay<S>?
            if index < universe - 1 { copy = replay }
            if let violation = replay.consume(operation) { return "\(violation)\nsequence: \(sequence)" }
            if let violation = explore(&replay) { return violation }
            if let copy { replay = copy }
        }
        return nil
    }
    do {
        var replay = try ConsumedSetReplay<S>(configuration: configuration, contract: contract)
        return explore(&replay)
    } catch {
        return "init threw \(error)"
    }
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
        if let violation = firstExhaustiveConsumedSetViolation(
            S.self, configuration: configuration, contract: contract(configuration),
            length: exhaustiveLength, universe: 4, stepNanoseconds: meanStepNanoseconds)
        {
            Issue.record("\(violation)")
            return
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
