import Foundation
@_spi(StoreExplorer) import PushDedupe

/// One schedule's threads: each store instance runs its program on a thread of its own, and
/// parks in its ``StoreFaults`` hook before every file-system step until the controller grants
/// it that step. Exactly one instance runs at a time, so an execution is fixed by the sequence
/// of grants, which the controller (``StoreExplorer``) chooses.
final class StoreExplorerRun: @unchecked Sendable {
    enum Status: Equatable {
        /// The thread has not reached its start gate yet.
        case launching
        /// At its start gate: its program has not run.
        case atStart
        /// Parked before a step.
        case parked(StoreFaults.Step, number: Int)
        /// Parked in a lock held elsewhere, since `epoch`.
        case blocked(since: Int)
        case running
        case finished
        /// A simulated kill: parked for good (its descriptors point at /dev/null).
        case killed
    }

    /// What the controller sees between two grants.
    struct Settled {
        var statuses: [Status]
        var epoch: Int
    }

    private let condition = NSCondition()
    private var statuses: [Status]
    private var granted: Int?
    private var injected: [StoreFaults.Fault?]
    /// Counts grants, kills and exits: a blocked instance may retry once another instance moved.
    private var epoch = 0
    /// Set when the schedule is over: every hook returns at once, failing, so threads unwind.
    private var over = false
    private var exited = 0
    /// Store descriptors by number: the instance that last opened it, and its file.
    private var descriptors: [Int32: (owner: Int, device: UInt64, inode: UInt64)] = [:]

    init(instances: Int) {
        statuses = Array(repeating: .launching, count: instances)
        injected = Array(repeating: nil, count: instances)
    }

    /// The faults object for `instance`: its steps are this run's scheduling points.
    func faults(for instance: Int) -> StoreFaults {
        StoreFaults(
            decide: { [self] step, number in park(instance, .parked(step, number: number)) },
            opened: { [self] descriptor in opened(instance, descriptor) },
            lockContended: { [self] in waitForLock(instance) })
    }

    /// Runs `program` on a new thread once the controller first grants `instance`.
    func launch(_ instance: Int, _ program: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            if park(instance, .atStart) == nil { program() }
            condition.withLock {
                if statuses[instance] != .killed { statuses[instance] = .finished }
                // Its last code may have closed a descriptor, releasing a lock another waits on.
                epoch += 1
                exited += 1
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// Whether `instance` must stop: killed, or the schedule is over.
    func isStopped(_ instance: Int) -> Bool {
        condition.withLock { over || statuses[instance] == .killed }
    }

    // MARK: The instance threads' side

    /// Parks `instance` as `status` (blocked since now when `nil`) until it is granted.
    private func park(_ instance: Int, _ status: Status?) -> StoreFaults.Fault? {
        condition.lock()
        defer { condition.unlock() }
        if over { return .fail(errno: ECANCELED) }
        statuses[instance] = status ?? .blocked(since: epoch)
        condition.broadcast()
        while granted != instance && !over { condition.wait() }
        guard granted == instance else { return .fail(errno: ECANCELED) }
        granted = nil
        statuses[instance] = .running
        defer { injected[instance] = nil }
        return injected[instance]
    }

    private func waitForLock(_ instance: Int) -> Bool {
        park(instance, nil) == nil
    }

    private func opened(_ instance: Int, _ descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        condition.withLock { descriptors[descriptor] = (instance, UInt64(info.st_dev), UInt64(info.st_ino)) }
    }

    // MARK: The controller's side

    /// Waits until no instance runs; `nil` when one has not parked within `timeout` seconds
    /// (a hang outside any step: no schedule decision depends on this clock).
    func settle(timeout: TimeInterval) -> Settled? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while statuses.contains(where: { $0 == .launching || $0 == .running }) || granted != nil {
            if !condition.wait(until: deadline) { return nil }
        }
        return Settled(statuses: statuses, epoch: epoch)
    }

    /// Lets `instance` take its step (or its retry of a lock), failing it with `fault`.
    func grant(_ instance: Int, failing fault: StoreFaults.Fault?) {
        condition.withLock {
            injected[instance] = fault
            granted = instance
            epoch += 1
            condition.broadcast()
        }
    }

    /// Kills `instance` before the step it is parked at, as the kernel would: every descriptor
    /// it holds now reads /dev/null (so its locks are released and its later closes are
    /// harmless), and it runs no more code until the schedule is over.
    func kill(_ instance: Int) {
        condition.withLock {
            statuses[instance] = .killed
            epoch += 1
            let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
            defer { close(devNull) }
            for (descriptor, record) in descriptors.sorted(by: { $0.key < $1.key }) where record.owner == instance {
                var info = stat()
                // A number the instance closed may have been reused by another file since.
                guard fstat(descriptor, &info) == 0, UInt64(info.st_dev) == record.device, UInt64(info.st_ino) == record.inode else { continue }
                // A mapping keeps the open file, and so its lock, alive after the descriptor goes.
                _ = flock(descriptor, LOCK_UN)
                _ = dup2(devNull, descriptor)
                descriptors[descriptor] = nil
            }
        }
    }

    /// Ends the schedule: every parked or killed thread resumes with an injected error and
    /// unwinds. Returns whether every thread exited within `timeout` seconds.
    func end(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        over = true
        condition.broadcast()
        while exited < statuses.count {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}
