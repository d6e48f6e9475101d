import PushDedupe
import Testing

/// What a window promises, checked by `checkWindowConformance`.
enum WindowContract {
    /// Every answer, `count` and `evictions` equal `ReferenceWindow` with this capacity
    /// (`nil`: unbounded).
    case exact(capacity: Int?)
    /// Approximate: a suppression needs an admission at most `window + suppressionSlack` ago
    /// (never a false drop beyond that); an admission within `window - admissionSlack` of the
    /// last one is allowed only if an eviction was counted since.
    case approximate(suppressionSlack: Int64, admissionSlack: Int64)
}

/// Times are multiples of 2⁻⁹ s (1,953,125 ns) so that windows storing `Double` seconds, like the
/// published code, compute the same boundary as the integer model.
let timeQuantum: Int64 = 1_953_125

/// One admit, as the checker replays it.
struct WindowOperation: CustomStringConvertible {
    var fingerprint: RouteFingerprint
    var time: Timestamp
    var description: String { "admit(\(fingerprint.rawValue % 1000), t=\(time.nanoseconds / timeQuantum)q)" }
}

/// The checker's state after some admits: the window, the model, and what the approximate
/// contract remembers. A value, so that the exhaustive pass copies it after each prefix instead
/// of replaying the prefix for every sequence that starts with it.
struct WindowReplay<W: FingerprintWindow> {
    var window: W
    let configuration: WindowConfiguration
    let contract: WindowContract
    let windowNanoseconds: Int64
    var reference: ReferenceWindow?
    var lastAdmission: [RouteFingerprint: (time: Int64, evictions: Int)] = [:]
    var latest = Int64.min
    var step = 0

    init(configuration: WindowConfiguration, contract: WindowContract) throws {
        window = try W(configuration: configuration)
        self.configuration = configuration
        self.contract = contract
        windowNanoseconds = configuration.window.wholeNanoseconds
        if case .exact(let capacity) = contract {
            reference = ReferenceWindow(window: windowNanoseconds, capacity: capacity)
        }
    }

    /// Admits `operation` and checks the answer against the contract; returns the mismatch's
    /// description, or `nil`.
    mutating func admit(_ operation: WindowOperation) -> String? {
        defer { step += 1 }
        latest = max(latest, operation.time.nanoseconds)
        let admitted = window.admit(operation.fingerprint, at: operation.time)
        // Built only on a failure: formatting the configuration costs more than the admit.
        func context() -> String { "\(W.strategyID) \(configuration) step \(step) \(operation)" }
        if var model = reference {
            let expected = model.admit(operation.fingerprint, at: operation.time)
            reference = model
            if admitted != expected { return "\(context()): admitted \(admitted), model \(expected)" }
            if window.count != model.count { return "\(context()): count \(window.count), model \(model.count)" }
            if window.evictions != model.evictions {
                return "\(context()): evictions \(window.evictions), model \(model.evictions)"
            }
        } else if case .approximate(let suppressionSlack, let admissionSlack) = contract {
            let previous = lastAdmission[operation.fingerprint]
            let age = previous.map { latest - $0.time }
            if !admitted {
                guard let age, age <= windowNanoseconds + suppressionSlack else {
                    return "\(context()): suppressed with last admission \(age.map(String.init) ?? "never") ns ago"
                }
            } else if let age, let previous, age <= windowNanoseconds - admissionSlack,
                window.evictions == previous.evictions
            {
                return "\(context()): admitted a repeat \(age) ns after the last admission with no eviction"
            }
        }
        if admitted { lastAdmission[operation.fingerprint] = (latest, window.evictions) }
        if window.count < 0 || window.footprint < 0 || window.evictions < 0 {
            return "\(context()): negative count, footprint or evictions"
        }
        return nil
    }
}

/// Drives `W` through `operations` and checks every answer against the contract.
/// Returns the first mismatch's description, or `nil`.
func firstWindowViolation<W: FingerprintWindow>(
    _ type: W.Type, configuration: WindowConfiguration, contract: WindowContract, operations: [WindowOperation]
) -> String? {
    var replay: WindowReplay<W>
    do {
        replay = try WindowReplay(configuration: configuration, contract: contract)
    } catch {
        return "init threw \(error)"
    }
    for operation in operations {
        if let violation = replay.admit(operation) { return violation }
    }
    return nil
}

/// Checks every sequence of `length` admits over `universe` fingerprints, each step drawn from
/// `stepsInQuanta`, as `firstWindowViolation` would check each one from a fresh window, but
/// replaying each shared prefix once: the state after a prefix is copied for every continuation
/// but the last, which goes on in place, so both the copy-on-write path and the in-place path
/// run. Returns the first mismatch with its sequence, or `nil`.
func firstExhaustiveWindowViolation<W: FingerprintWindow>(
    _ type: W.Type, configuration: WindowConfiguration, contract: WindowContract,
    length: Int, universe: Int, stepsInQuanta: [Int64]
) -> String? {
    let fingerprints = (0..<universe).map { RouteFingerprint(route: "item:\($0)") }
    var sequence: [WindowOperation] = []
    func explore(_ replay: inout WindowReplay<W>) -> String? {
        guard sequence.count < length else { return nil }
        let lastTime = sequence.last?.time.nanoseconds ?? 1_000 * timeQuantum
        let continuations = fingerprints.flatMap { fingerprint in
            stepsInQuanta.map { WindowOperation(fingerprint: fingerprint, time: Timestamp(nanoseconds: lastTime + $0 * timeQuantum)) }
        }
        for (index, operation) in continuations.enumerated() {
            sequence.append(operation)
            defer { sequence.removeLast() }
            var copy: WindowReplay<W>?
            if index < continuations.count - 1 { copy = replay }
            if let violation = replay.admit(operation) { return "\(violation)\nsequence: \(sequence)" }
            if let violation = explore(&replay) { return violation }
            if let copy { replay = copy }
        }
        return nil
    }
    do {
        var replay = try WindowReplay<W>(configuration: configuration, contract: contract)
        return explore(&replay)
    } catch {
        return "init threw \(error)"
    }
}

/// Random operation sequences: a small fingerprint universe, time steps that hit the window
/// boundary exactly, repeat timestamps, and occasional steps backwards.
func randomWindowOperations(
    count: Int, universe: Int, windowQuanta: Int64, using random: inout SplitMix64
) -> [WindowOperation] {
    let fingerprints = (0..<max(1, universe)).map { RouteFingerprint(route: "item:\($0)") }
    var time: Int64 = 1_000 * timeQuantum
    var operations: [WindowOperation] = []
    operations.reserveCapacity(count)
    for _ in 0..<count {
        let stepQuanta: Int64
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: stepQuanta = 0
        case 2: stepQuanta = windowQuanta
        case 3: stepQuanta = windowQuanta + 1
        case 4: stepQuanta = -Int64.random(in: 1...3, using: &random)
        default: stepQuanta = Int64.random(in: 0...max(1, windowQuanta / 2), using: &random)
        }
        time += stepQuanta * timeQuantum
        operations.append(WindowOperation(
            fingerprint: fingerprints[Int.random(in: 0..<fingerprints.count, using: &random)],
            time: Timestamp(nanoseconds: time)))
    }
    return operations
}

/// The shared conformance suite for one window type: exhaustive small sequences, then thousands
/// of seeded random ones over small capacities and windows, including 0.
func checkWindowConformance<W: FingerprintWindow>(
    _ type: W.Type,
    contract: (WindowConfiguration) -> WindowContract,
    capacities: [Int] = Array(0..<9) + [64],
    randomSequences: Int = 2_000,
    exhaustiveLength: Int = 6,
    seed: UInt64 = 0x5eed
) {
    let windowsInQuanta: [Int64] = [0, 1, 4, 256]
    for windowQuanta in windowsInQuanta.prefix(3) {
        // Capacity 1 below a universe of 2 exercises eviction as well as expiry.
        let configuration = WindowConfiguration(window: .nanoseconds(windowQuanta * timeQuantum), capacity: 1)
        if let violation = firstExhaustiveWindowViolation(
            W.self, configuration: configuration, contract: contract(configuration),
            length: exhaustiveLength, universe: 2, stepsInQuanta: [0, max(1, windowQuanta), max(1, windowQuanta) + 1])
        {
            Issue.record("\(violation)")
            return
        }
    }
    var random = SplitMix64(seed: seed)
    for index in 0..<randomSequences {
        let windowQuanta = windowsInQuanta[index % windowsInQuanta.count]
        let capacity = capacities[Int.random(in: 0..<capacities.count, using: &random)]
        let configuration = WindowConfiguration(window: .nanoseconds(windowQuanta * timeQuantum), capacity: capacity)
        let operations = randomWindowOperations(
            count: Int.random(in: 1...120, using: &random), universe: Int.random(in: 1...12, using: &random),
            windowQuanta: max(1, windowQuanta), using: &random)
        if let violation = firstWindowViolation(
            W.self, configuration: configuration, contract: contract(configuration), operations: operations)
        {
            Issue.record("\(violation)\nsequence: \(operations)")
            return
        }
    }
}
