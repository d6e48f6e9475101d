import class Foundation.NSLock

/// Failure injection for a store's file-system steps, public so that an app's own tests can make
/// its store fail the way a phone does: a read refused while Data Protection keeps the file
/// locked, a full disk, a process killed between two steps.
///
/// ```swift
/// // The first restore meets EACCES (the device is still locked); every later step works.
/// let faults = StoreFaults.failing(.read, errno: EACCES, times: 1)
/// let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, store: .journal(url, faults: faults))
/// ```
///
/// Every store numbers its steps from 1 in the order it performs them; ``kill(atStep:)`` ends the
/// process with SIGKILL just before the step of that number, which is how the harness's kill
/// sweep reaches every point of a consume. A fault is decided before the step runs, so a failed
/// step has no effect on the file.
public final class StoreFaults: @unchecked Sendable {
    /// One file-system operation of a store.
    public enum Step: String, Sendable, CaseIterable, CustomStringConvertible {
        /// Opening or creating a file.
        case open
        /// Reading a file's bytes (or a database's rows).
        case read
        /// Writing bytes (a journal record, a temporary file, a database row).
        case write
        /// Making written bytes durable against a power cut: `fdatasync`, `F_FULLFSYNC`, `msync`.
        case sync
        /// Taking or releasing a lock shared with the other process on the file.
        case lock
        /// Renaming a finished file over the store's, or moving a file aside.
        case rename
        /// Truncating or extending a file.
        case truncate
        /// Mapping a file into memory, or copying a record into the mapping.
        case map

        public var description: String { rawValue }
    }

    /// What happens instead of a step.
    public enum Fault: Sendable, Equatable {
        /// The step fails with this `errno`, as the system call would.
        case fail(errno: Int32)
        /// The process ends at once with SIGKILL, as iOS ends a suspended app.
        case kill
    }

    private let decide: @Sendable (_ step: Step, _ number: Int) -> Fault?
    private let lock = NSLock()
    private var steps = 0
    /// The explorer's hooks (``init(decide:opened:lockContended:)``); `nil` otherwise.
    let opened: (@Sendable (_ descriptor: Int32) -> Void)?
    let lockContended: (@Sendable () -> Bool)?

    /// Decides each step: `decide(step, number)` returns the fault to inject, or `nil` to run it.
    /// `number` counts every step this object has seen, from 1.
    public init(_ decide: @escaping @Sendable (_ step: Step, _ number: Int) -> Fault?) {
        self.decide = decide
        opened = nil
        lockContended = nil
    }

    /// For a scheduler that runs stores on threads of one process and parks each inside
    /// `decide`. A blocking `flock` would park a thread in the kernel, out of the scheduler's
    /// sight, so the store tries the lock without blocking and, while it is held elsewhere, calls
    /// `lockContended`, which returns when the lock is worth trying again, or `false` to fail
    /// the step with `EWOULDBLOCK`. `opened` sees every descriptor the store opens, so that a
    /// simulated kill can release its locks as the kernel would.
    @_spi(StoreExplorer)
    public init(
        decide: @escaping @Sendable (_ step: Step, _ number: Int) -> Fault?,
        opened: @escaping @Sendable (_ descriptor: Int32) -> Void,
        lockContended: @escaping @Sendable () -> Bool
    ) {
        self.decide = decide
        self.opened = opened
        self.lockContended = lockContended
    }

    /// Fails the first `times` steps of kind `step` with `errno`, then lets them run.
    public static func failing(_ step: Step, errno: Int32, times: Int = .max) -> StoreFaults {
        let remaining = _Countdown(times)
        return StoreFaults { seen, _ in
            seen == step && remaining.take() ? .fail(errno: errno) : nil
        }
    }

    /// Ends the process with SIGKILL just before step `number`.
    public static func kill(atStep number: Int) -> StoreFaults {
        StoreFaults { _, seen in seen == number ? .kill : nil }
    }

    /// Steps decided so far: after a run with no fault, the last step a kill sweep needs.
    public var stepsSeen: Int { lock.withLock { steps } }

    /// The fault for the next step, counting it.
    func fault(before step: Step) -> Fault? {
        let number = lock.withLock {
            steps += 1
            return steps
        }
        return decide(step, number)
    }
}

/// A thread-safe countdown for ``StoreFaults/failing(_:errno:times:)``.
private final class _Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining: Int

    init(_ count: Int) { remaining = count }

    /// Whether one more remains, using it.
    func take() -> Bool {
        lock.withLock {
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }
}
