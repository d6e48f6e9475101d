import Foundation
@_spi(StoreExplorer) import PushDedupe

/// What the instances of one schedule did, in the order the schedule ran them (one instance runs
/// at a time, so one sequence orders every event).
final class StoreExplorerLedger: @unchecked Sendable {
    struct Consume {
        var instance: Int
        var token: String
        var started: Int
        /// When a consume of the same instance returned with this id written, if one did.
        var acknowledged: Int?
    }

    private let lock = NSLock()
    private var sequence = 0
    private(set) var consumes: [Consume] = []
    /// Each instance's first failure, if any.
    private(set) var failures: [String?]
    /// The ids the instance whose save was acknowledged last knew then.
    private(set) var knownAtLastAcknowledgement: [String] = []

    init(instances: Int) {
        failures = Array(repeating: nil, count: instances)
    }

    func start(_ instance: Int, _ token: String) -> Int {
        lock.withLock {
            sequence += 1
            consumes.append(Consume(instance: instance, token: token, started: sequence))
            return consumes.count - 1
        }
    }

    /// A consume returned; acknowledged, it wrote every id its instance consumed before too.
    func finish(_ index: Int, acknowledged: Bool, known: [String]) {
        lock.withLock {
            sequence += 1
            guard acknowledged else { return }
            for other in consumes.indices where consumes[other].instance == consumes[index].instance && other <= index {
                if consumes[other].acknowledged == nil { consumes[other].acknowledged = sequence }
            }
            knownAtLastAcknowledgement = known
        }
    }

    func failed(_ instance: Int, _ failure: String) {
        lock.withLock { if failures[instance] == nil { failures[instance] = failure } }
    }
}

/// The contract (`Guides/Stores.md`) checked after one schedule, with a relaunch on the file.
struct StoreExplorerInvariants {
    let subject: StoreExplorerSubject
    let scenario: StoreExplorerScenario
    let faulted: Bool
    let ledger: StoreExplorerLedger
    let url: URL
    /// The unreadable file the schedule started from, if any.
    let damaged: [UInt8]?
    /// Every id the schedule could have stored.
    let candidates: [String]

    func check() -> [(invariant: String, detail: String)] {
        var violations: [(invariant: String, detail: String)] = []
        if !faulted {
            for (instance, failure) in ledger.failures.enumerated() {
                if let failure { violations.append(("no-spurious-failure", "\(StoreExplorerScenario.instanceName(instance)): \(failure)")) }
            }
        }
        // The relaunch fails rather than waits on a lock a live instance still holds.
        let faults = StoreFaults(decide: { _, _ in nil }, opened: { _ in }, lockContended: { false })
        do {
            let relaunch = try subject.launch(url, scenario.retained, faults)
            if let failure = relaunch.restoreFailure { return violations + [("relaunch-restores", failure)] + checkFiles() }
            let lost = required().filter { !relaunch.knows($0) }
            if !lost.isEmpty { violations.append(("acknowledged-kept", "the relaunch does not know \(lost.joined(separator: ", "))")) }
            let invented = relaunch.knownCount - candidates.filter(relaunch.knows).count
            if invented > 0 { violations.append(("no-invented-id", "the relaunch knows \(invented) id(s) never consumed")) }
        } catch {
            violations.append(("relaunch-restores", "\(error)"))
        }
        // After the relaunch, whose own repairs count too.
        return violations + checkFiles()
    }

    /// The ids the relaunch must know. A sharing design keeps every acknowledged id fewer than
    /// `retained` others may have been written after (those not acknowledged before it
    /// started), and every seed fewer than `retained` ids followed; the snapshot design keeps
    /// what the last acknowledged save held.
    private func required() -> [String] {
        let consumes = ledger.consumes
        guard subject.sharesFile else { return ledger.knownAtLastAcknowledgement }
        var required: [String] = []
        if scenario.seedsRequired(by: subject) {
            for (index, seed) in scenario.seeds.enumerated() where scenario.seeds.count - 1 - index + consumes.count < scenario.retained {
                required.append(seed)
            }
        }
        for consume in consumes where consume.acknowledged != nil {
            let mayBeNewer = consumes.filter { other in
                other.token != consume.token && (other.acknowledged.map { $0 > consume.started } ?? true)
            }
            if mayBeNewer.count < scenario.retained { required.append(consume.token) }
        }
        return required
    }

    /// Nothing unread lost, and each damaged content copied aside at most once.
    private func checkFiles() -> [(invariant: String, detail: String)] {
        let directory = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        let copies = names.filter { candidate in
            candidate.hasPrefix(name + ".corrupt-") && candidate.dropFirst(name.count + 9).allSatisfy(\.isNumber)
        }
        var violations: [(invariant: String, detail: String)] = []
        var groups: [(bytes: [UInt8], names: [String])] = []
        for copy in copies {
            let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(copy).path).map(Array.init) ?? []
            if let group = groups.firstIndex(where: { $0.bytes == bytes }) {
                groups[group].names.append(copy)
            } else {
                groups.append((bytes, [copy]))
            }
        }
        for group in groups where group.names.count > 1 {
            violations.append(("copied-aside-once", "\(group.names.joined(separator: ", ")) hold the same \(group.bytes.count) bytes"))
        }
        if let damaged {
            let atPath = FileManager.default.contents(atPath: url.path).map(Array.init)
            if atPath != damaged && !groups.contains(where: { $0.bytes == damaged }) {
                violations.append(("unread-kept", "the damaged file's \(damaged.count) bytes are neither at \(name) nor in a copy (\(names.joined(separator: ", ")))"))
            }
        }
        return violations
    }
}
