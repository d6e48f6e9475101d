import PushDedupe
import Testing

/// Every registered window through the shared conformance checker, each with the contract its
/// doc comment promises, declared below as its `ModelledWindow` conformance (a window added
/// later declares its own, in its own test file).
@Suite struct WindowConformanceTests {
    @Test(arguments: WindowKind.allCases)
    func everyWindowKeepsTheContractItDeclares(_ kind: WindowKind) {
        guard let modelled = kind.type as? any ModelledWindow.Type else {
            Issue.record("\(kind) declares no contract: add `extension \(kind.type): ModelledWindow` beside its tests")
            return
        }
        check(modelled)
    }

    private func check<W: ModelledWindow>(_ type: W.Type) {
        checkWindowConformance(W.self, contract: W.contract)
    }
}

extension PublishedLiteralWindow: ModelledWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract { .exact(capacity: nil) }
}

extension ArrayScanWindow: ModelledWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract { .exact(capacity: nil) }
}

extension HashDequeWindow: ModelledWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract { .exact(capacity: nil) }
}

extension RingBufferWindow: ModelledWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract { .exact(capacity: configuration.capacity) }
}

/// Suppression never reaches past the window; admissions of a live repeat happen only past
/// ⌈window / 2⌉ (the half the documented slack allows).
extension EpochSetsWindow: ModelledWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract {
        .approximate(suppressionSlack: 0, admissionSlack: configuration.window.wholeNanoseconds / 2)
    }
}

/// Never a false drop, and a live repeat is admitted only after a counted eviction.
extension DirectMappedWindow: ModelledWindow {
    static func contract(_ configuration: WindowConfiguration) -> WindowContract {
        .approximate(suppressionSlack: 0, admissionSlack: 0)
    }
}

/// One full-length sequence of the exhaustive pass, as (route, time step in quanta) admits.
protocol WindowMutation {
    static var sequence: [(route: Int, quanta: Int64)] { get }
}

/// `published-literal`, except that it answers wrongly on the last admit of one sequence.
struct MutantWindow<Mutation: WindowMutation>: FingerprintWindow {
    static var strategyID: String { "mutant" }
    static var guarantee: Guarantee { .exact }
    var base: PublishedLiteralWindow
    var admits: [(route: Int, quanta: Int64)] = []
    var lastQuanta: Int64 = 1_000

    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        base = try PublishedLiteralWindow(configuration: configuration)
    }

    var window: Duration { base.window }
    var count: Int { base.count }
    var footprint: Int { base.footprint }
    var evictions: Int { base.evictions }

    mutating func admit(_ fingerprint: RouteFingerprint, at now: Timestamp) -> Bool {
        let answer = base.admit(fingerprint, at: now)
        let route = fingerprint == RouteFingerprint(route: "item:0") ? 0 : 1
        admits.append((route, now.nanoseconds / timeQuantum - lastQuanta))
        lastQuanta = now.nanoseconds / timeQuantum
        let target = Mutation.sequence
        return admits.count == target.count && zip(admits, target).allSatisfy { $0 == $1 } ? !answer : answer
    }
}

enum FirstWindowSequence: WindowMutation { static let sequence: [(route: Int, quanta: Int64)] = Array(repeating: (0, 0), count: 6) }
enum MiddleWindowSequence: WindowMutation { static let sequence: [(route: Int, quanta: Int64)] = [(1, 2), (0, 0), (1, 1), (1, 0), (0, 2), (1, 1)] }
enum LastWindowSequence: WindowMutation { static let sequence: [(route: Int, quanta: Int64)] = Array(repeating: (1, 2), count: 6) }

/// The exhaustive pass shares prefixes between sequences; it must still reach every one. A
/// window wrong on a single sequence of 46,656, the first, one in the middle or the last (the
/// one that runs in place, with no copy), is caught, and the sequence is named.
@Suite struct WindowConformanceCheckerTests {
    static func violation<M: WindowMutation>(_ mutation: M.Type) -> String? {
        firstExhaustiveWindowViolation(
            MutantWindow<M>.self, configuration: WindowConfiguration(window: .nanoseconds(timeQuantum), capacity: 1),
            contract: .exact(capacity: nil), length: 6, universe: 2, stepsInQuanta: [0, 1, 2])
    }

    @Test func everySequenceIsReached() {
        for violation in [Self.violation(FirstWindowSequence.self), Self.violation(MiddleWindowSequence.self), Self.violation(LastWindowSequence.self)] {
            #expect(violation?.contains("step 5") == true && violation?.contains("sequence: [") == true, "\(violation ?? "nil")")
        }
        #expect(firstExhaustiveWindowViolation(
            PublishedLiteralWindow.self, configuration: WindowConfiguration(window: .nanoseconds(timeQuantum), capacity: 1),
            contract: .exact(capacity: nil), length: 6, universe: 2, stepsInQuanta: [0, 1, 2]) == nil)
    }
}
