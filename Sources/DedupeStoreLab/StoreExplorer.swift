import DedupeMeasurement
import Foundation
@_spi(StoreExplorer) import PushDedupe

/// A deterministic, systematic explorer of store instances sharing one file (the app, its
/// extension, a relaunch), in the manner of CHESS's context bounding and SQLite's IO-error
/// harness: every instance runs on its own thread and parks before each file-system step
/// (``StoreExplorerRun``), and the explorer enumerates, in a fixed order, every interleaving
/// with at most `preemptions` preemptive switches, then, for every one of those with at most
/// `faultPreemptions`, every fault at every step of every instance. After each schedule a fresh
/// instance relaunches on the file and the contract's invariants are checked.
///
/// A schedule is replayable from its ``Schedule``: the switches (decision index → instance)
/// forced on the default policy (run the current instance while it can; else the first that
/// can), and the fault.
///
/// Invariants (``StoreExplorerInvariants``): `acknowledged-kept`, `no-invented-id`,
/// `unread-kept`, `copied-aside-once`, `relaunch-restores`, `no-spurious-failure` (in a schedule
/// with no fault), `no-deadlock`, `no-hang`.
///
/// SQLite waits for its own locks in its busy handler, out of the scheduler's sight: a schedule
/// that parks a connection inside a transaction (an append of several ids after a failed one)
/// waits out the store's one-second busy timeout. Its outcome is the same every run; it is only
/// slow.
package enum StoreExplorer {
    struct Settings: Sendable {
        /// Preemptive switches per fault-free schedule (CHESS's bound).
        var preemptions = 2
        /// Preemptive switches of the schedules each fault is injected into.
        var faultPreemptions = 1
        var faults = FaultKind.allCases
        /// Scenarios to explore, by name; every scenario the subject has when `nil`.
        var scenarios: [String]? = nil
        /// Decisions after which a schedule counts as hung.
        var maximumDecisions = 400
        /// Seconds an instance may run between two steps before the schedule counts as hung
        /// (a safety net only: no schedule's path depends on it).
        var stallSeconds: TimeInterval = 20
    }

    package enum FaultKind: String, Sendable, CaseIterable, CustomStringConvertible {
        case kill, eio = "EIO", enospc = "ENOSPC", eacces = "EACCES"

        var errno: Int32 {
            switch self {
            case .kill: 0
            case .eio: EIO
            case .enospc: ENOSPC
            case .eacces: EACCES
            }
        }

        package var description: String { rawValue }
    }

    /// A switch forced at decision `decision`: `instance` runs there.
    struct Switch: Sendable, Hashable, CustomStringConvertible {
        var decision: Int
        var instance: Int

        var description: String { "\(decision)→\(StoreExplorerScenario.instanceName(instance))" }
    }

    /// A fault instead of step `step` (as its ``StoreFaults`` numbers it) of `instance`.
    struct FaultPlan: Sendable, Hashable, CustomStringConvertible {
        var instance: Int
        var step: Int
        var kind: FaultKind
        /// The step's name, for the description only.
        var stepName: String

        var description: String { "\(kind) at \(StoreExplorerScenario.instanceName(instance))'s step \(step) (\(stepName))" }
    }

    /// A fault schedule keeps its fault-free schedule's switches: those after the fault fall on
    /// a different execution, and one whose instance cannot run at its decision is skipped.
    struct Schedule: Sendable, Hashable, CustomStringConvertible {
        var switches: [Switch] = []
        var fault: FaultPlan?

        var description: String {
            "switches [\(switches.map(\.description).joined(separator: ", "))]" + (fault.map { ", \($0)" } ?? ", no fault")
        }
    }

    /// One decision of an execution: who could run, who ran, and what it did.
    struct Decision: Sendable {
        var enabled: [Int]
        var chosen: Int
        /// Whether the instance that ran last could have gone on: another choice preempts it.
        var preemptive: Bool
        var move: Move
        /// The fault the step met instead of running, if any.
        var fault: FaultKind?

        enum Move: Sendable {
            /// The instance's launch: its program starts.
            case launch
            /// Its step of this number.
            case step(StoreFaults.Step, number: Int)
            /// Another try of a lock held elsewhere.
            case retry
        }

        /// `A:launch`, `A4:write` (A's step 4, a write), `A4:write!EIO` (failed instead),
        /// `A:retry`.
        var description: String {
            let name = StoreExplorerScenario.instanceName(chosen)
            return switch move {
            case .launch: "\(name):launch"
            case .step(let kind, let number): "\(name)\(number):\(kind)" + (fault.map { "!\($0)" } ?? "")
            case .retry: "\(name):retry"
            }
        }
    }

    struct Execution: Sendable {
        var decisions: [Decision] = []
        var violations: [(invariant: String, detail: String)] = []
    }

    /// Explores `subject`: every scenario the settings select.
    static func explore(_ subject: StoreExplorerSubject, settings: Settings = Settings()) throws -> StoreExplorationResult {
        var result = StoreExplorationResult(design: subject.name)
        let root = try StoreExplorer.root()
        defer { try? FileManager.default.removeItem(at: root) }
        for scenario in subject.scenarios where settings.scenarios?.contains(scenario.name) ?? true {
            try explore(subject, scenario, settings: settings, root: root, into: &result)
        }
        return result
    }

    private static func explore(
        _ subject: StoreExplorerSubject, _ scenario: StoreExplorerScenario, settings: Settings, root: URL,
        into result: inout StoreExplorationResult
    ) throws {
        let bound = min(settings.preemptions, scenario.maximumPreemptions)
        let faultBound = min(settings.faultPreemptions, bound)
        var number = 0
        var families: [(switches: [Switch], decisions: [Decision])] = []
        func run(_ schedule: Schedule) throws -> Execution {
            number += 1
            let execution = try execute(subject, scenario, schedule, settings: settings, directory: root.appendingPathComponent("\(number)"))
            result.schedules += 1
            if schedule.fault != nil { result.faultsInjected += 1 }
            for violation in execution.violations {
                result.violations.append(StoreExplorationViolation(
                    scenario: scenario.name, number: number, schedule: schedule, invariant: violation.invariant, detail: violation.detail))
            }
            return execution
        }
        // Depth first, each switch after the previous one: every schedule within the bound once.
        func visit(_ switches: [Switch], cost: Int) throws {
            let execution = try run(Schedule(switches: switches))
            if cost <= faultBound { families.append((switches, execution.decisions)) }
            let first = (switches.last?.decision ?? -1) + 1
            for index in execution.decisions.indices where index >= first {
                let decision = execution.decisions[index]
                let price = decision.preemptive ? 1 : 0
                guard cost + price <= bound else { continue }
                for alternative in decision.enabled where alternative != decision.chosen {
                    try visit(switches + [Switch(decision: index, instance: alternative)], cost: cost + price)
                }
            }
        }
        try visit([], cost: 0)
        let kinds = settings.faults.filter { $0 != .kill || subject.kills }
        for family in families {
            for decision in family.decisions {
                guard case .step(let step, let stepNumber) = decision.move else { continue }
                for kind in kinds {
                    let fault = FaultPlan(instance: decision.chosen, step: stepNumber, kind: kind, stepName: step.rawValue)
                    _ = try run(Schedule(switches: family.switches, fault: fault))
                }
            }
        }
    }

    /// Runs `schedule` of the scenario named `scenario` again, as an exploration ran it.
    static func replay(
        _ subject: StoreExplorerSubject, scenario: String, _ schedule: Schedule, settings: Settings = Settings()
    ) throws -> Execution {
        guard let found = subject.scenarios.first(where: { $0.name == scenario }) else {
            throw MeasurementError.stageFailed("store explorer: \(subject.name) has no scenario \(scenario)")
        }
        let root = try root()
        defer { try? FileManager.default.removeItem(at: root) }
        return try execute(subject, found, schedule, settings: settings, directory: root.appendingPathComponent("replay"))
    }

    /// Runs one schedule of `scenario` in `directory` (created, then removed) and checks it.
    static func execute(
        _ subject: StoreExplorerSubject, _ scenario: StoreExplorerScenario, _ schedule: Schedule, settings: Settings,
        directory: URL
    ) throws -> Execution {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("consumed.store")
        try subject.prepare(scenario, url)
        let damaged = scenario.seeding == .damagedHeader ? FileManager.default.contents(atPath: url.path).map(Array.init) : nil
        let candidates = scenario.seeds + scenario.programs.flatMap { $0 }
        let ledger = StoreExplorerLedger(instances: scenario.instances)
        let run = StoreExplorerRun(instances: scenario.instances)
        for instance in 0..<scenario.instances {
            let faults = run.faults(for: instance)
            run.launch(instance) {
                program(instance, scenario, subject, url: url, faults: faults, run: run, ledger: ledger, candidates: candidates)
            }
        }
        var execution = Execution()
        let forced = Dictionary(schedule.switches.map { ($0.decision, $0.instance) }, uniquingKeysWith: { first, _ in first })
        var current: Int?
        while true {
            guard let settled = run.settle(timeout: settings.stallSeconds) else {
                execution.violations.append(("no-hang", "an instance ran \(Int(settings.stallSeconds)) s without reaching a step"))
                break
            }
            if settled.statuses.allSatisfy({ $0 == .finished || $0 == .killed }) { break }
            let enabled = (0..<scenario.instances).filter { isEnabled($0, settled, scenario) }
            if enabled.isEmpty {
                execution.violations.append(("no-deadlock", "every live instance waits: \(describe(settled.statuses))"))
                break
            }
            if execution.decisions.count >= settings.maximumDecisions {
                execution.violations.append(("no-hang", "\(settings.maximumDecisions) decisions without ending: \(describe(settled.statuses))"))
                break
            }
            let preemptive = current.map(enabled.contains) ?? false
            var chosen = preemptive ? current ?? enabled[0] : enabled[0]
            if let switched = forced[execution.decisions.count], enabled.contains(switched) { chosen = switched }
            let move: Decision.Move = switch settled.statuses[chosen] {
            case .parked(let kind, let number): .step(kind, number: number)
            case .atStart: .launch
            default: .retry
            }
            var decision = Decision(enabled: enabled, chosen: chosen, preemptive: preemptive, move: move)
            current = chosen
            if let fault = schedule.fault, fault.instance == chosen, case .step(_, let number) = move, number == fault.step {
                decision.fault = fault.kind
                execution.decisions.append(decision)
                if fault.kind == .kill {
                    run.kill(chosen)
                    continue
                }
                run.grant(chosen, failing: .fail(errno: fault.kind.errno))
            } else {
                execution.decisions.append(decision)
                run.grant(chosen, failing: nil)
            }
        }
        execution.violations += StoreExplorerInvariants(
            subject: subject, scenario: scenario, faulted: schedule.fault != nil, ledger: ledger, url: url, damaged: damaged,
            candidates: candidates
        ).check()
        if !run.end(timeout: settings.stallSeconds) {
            execution.violations.append(("no-hang", "an instance did not unwind after the schedule ended"))
        }
        // The same text every run: no directory, no process id (in `NAME.creating-PID`).
        let prefix = directory.path + "/"
        for index in execution.violations.indices {
            execution.violations[index].detail = execution.violations[index].detail
                .replacingOccurrences(of: prefix, with: "").replacingOccurrences(of: "-\(getpid())", with: "-PID")
        }
        return execution
    }

    /// One instance's thread: launch (the restore), then each consume, recorded in `ledger`.
    private static func program(
        _ instance: Int, _ scenario: StoreExplorerScenario, _ subject: StoreExplorerSubject, url: URL, faults: StoreFaults,
        run: StoreExplorerRun, ledger: StoreExplorerLedger, candidates: [String]
    ) {
        let launched: any StoreExplorerInstance
        do {
            launched = try subject.launch(url, scenario.retained, faults)
        } catch {
            if !run.isStopped(instance) { ledger.failed(instance, "launch: \(error)") }
            return
        }
        guard !run.isStopped(instance) else { return }
        if let failure = launched.restoreFailure { ledger.failed(instance, "restore: \(failure)") }
        for token in scenario.programs[instance] {
            let consume = ledger.start(instance, token)
            let acknowledged = launched.consume(token)
            guard !run.isStopped(instance) else { return }
            ledger.finish(consume, acknowledged: acknowledged, known: acknowledged ? candidates.filter(launched.knows) : [])
            if !acknowledged { ledger.failed(instance, "consume \(token): \(launched.storeFailure ?? "not written")") }
        }
    }

    private static func isEnabled(_ instance: Int, _ settled: StoreExplorerRun.Settled, _ scenario: StoreExplorerScenario) -> Bool {
        switch settled.statuses[instance] {
        case .atStart:
            guard let predecessor = scenario.launchesAfter[instance] else { return true }
            return settled.statuses[predecessor] == .finished || settled.statuses[predecessor] == .killed
        case .parked: return true
        case .blocked(let since): return settled.epoch > since
        case .launching, .running, .finished, .killed: return false
        }
    }

    private static func describe(_ statuses: [StoreExplorerRun.Status]) -> String {
        statuses.enumerated().map { instance, status in
            let state = switch status {
            case .launching: "launching"
            case .atStart: "not started"
            case .parked(let step, let number): "before step \(number) (\(step))"
            case .blocked: "waiting for a lock"
            case .running: "running"
            case .finished: "finished"
            case .killed: "killed"
            }
            return "\(StoreExplorerScenario.instanceName(instance)) \(state)"
        }.joined(separator: ", ")
    }

    /// A new directory for one exploration's files: in memory (`/dev/shm`) where writable.
    private static func root() throws -> URL {
        let memory = "/dev/shm"
        let base = access(memory, W_OK) == 0 ? URL(fileURLWithPath: memory) : FileManager.default.temporaryDirectory
        let root = base.appendingPathComponent("pushdedupe-explorer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }
}

/// What an exploration of one design found.
struct StoreExplorationResult: Sendable, Equatable {
    var design: String
    var schedules = 0
    var faultsInjected = 0
    var violations: [StoreExplorationViolation] = []

    /// Per scenario, invariant and fault kind (or none), the violation of the fewest switches,
    /// then the first found.
    var shortestViolations: [StoreExplorationViolation] {
        var shortest: [String: StoreExplorationViolation] = [:]
        var order: [String] = []
        for violation in violations {
            let key = "\(violation.scenario) \(violation.invariant) \(violation.schedule.fault.map { "\($0.kind)" } ?? "")"
            guard let held = shortest[key] else {
                shortest[key] = violation
                order.append(key)
                continue
            }
            if violation.schedule.switches.count < held.schedule.switches.count { shortest[key] = violation }
        }
        return order.compactMap { shortest[$0] }
    }
}

/// One broken invariant, with the schedule that replays it.
struct StoreExplorationViolation: Sendable, Equatable, CustomStringConvertible {
    var scenario: String
    /// The schedule's number within its scenario's exploration.
    var number: Int
    var schedule: StoreExplorer.Schedule
    var invariant: String
    var detail: String

    var description: String { "\(scenario) #\(number) \(schedule): \(invariant): \(detail)" }
}
