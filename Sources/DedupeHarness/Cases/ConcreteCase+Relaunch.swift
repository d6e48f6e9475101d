import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// What a case needs at a relaunch: how its consumed set persists, the configurations to rebuild
/// its strategies from, and what the snapshots cost.
struct _RelaunchState {
    let persistence: Persistence
    let window: WindowConfiguration
    let consumed: ConsumedSetConfiguration
    var relaunches = 0
    /// Snapshots taken, and restores made from one.
    var saves = 0
    var restores = 0
    /// The last snapshot `on-background` saved, which the next relaunch restores.
    var saved: [UInt8]?
    var totalBytes = 0
    var maximumBytes = 0
    var snapshotNanoseconds: UInt64 = 0
    var restoreNanoseconds: UInt64 = 0
    /// Why a relaunch could not rebuild or restore a strategy; the correctness run throws it.
    var failure: String?
    /// The save point where the snapshots written passed ``savedBytesBound``: the case stops
    /// there and is scored on the events before it.
    var stoppedAt: Int?
    /// The bytes the case may write in snapshots over one run (``defaultSavedBytesBound``;
    /// smaller in tests).
    var savedBytesBound = _RelaunchState.defaultSavedBytesBound

    /// The bytes a persisting case may write in snapshots over one run, 256 MiB. An unbounded set
    /// (`set` keeps every envelope) saves and re-inserts its whole content at every save point,
    /// so over a recording with dozens of relaunches the cost grows with the square of its
    /// events: 7.5 million envelopes over 49 relaunches took about 2 minutes per case.
    static let defaultSavedBytesBound = 256 << 20

    init(persistence: Persistence, window: WindowConfiguration, consumed: ConsumedSetConfiguration) {
        self.persistence = persistence
        self.window = window
        self.consumed = consumed
    }

    /// The snapshot figures, for a persisting case that saved at least once.
    var result: SnapshotResult? {
        guard persistence != .memory, saves > 0 else { return nil }
        return SnapshotResult(
            relaunches: relaunches, maximumBytes: maximumBytes, meanBytes: Double(totalBytes) / Double(saves),
            meanSnapshotNanoseconds: Double(snapshotNanoseconds) / Double(saves),
            meanRestoreNanoseconds: restores > 0 ? Double(restoreNanoseconds) / Double(restores) : 0,
            eventsRun: stoppedAt)
    }
}

extension EventColumns {
    /// Whether `range` holds a lifecycle marker: a binary search, once per call of the loop, not
    /// per event.
    func hasLifecycleEvent(in range: Range<Int>) -> Bool {
        guard !lifecycle.isEmpty else { return false }
        let first = firstLifecycleEvent(atOrAfter: range.lowerBound)
        return first < lifecycle.count && lifecycle[first] < range.upperBound
    }

    /// The position in `lifecycle` of the first marker at or after event `index`.
    func firstLifecycleEvent(atOrAfter index: Int) -> Int {
        var low = 0
        var high = lifecycle.count
        while low < high {
            let middle = (low + high) / 2
            if lifecycle[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension _CaseLoop {
    /// Feeds a range that holds lifecycle markers: the stretches between them through `process`,
    /// each relaunch through `relaunchApp`, and each background through `enterBackground`. Stops
    /// at a marker where the snapshots written pass `relaunch.savedBytesBound`
    /// (`relaunch.stoppedAt`); only a persisting case saves, and those run only for correctness.
    mutating func processAcrossLifecycleEvents(
        _ columns: borrowing EventColumns, _ range: Range<Int>,
        decisions: UnsafeMutablePointer<UInt8>, created: UnsafeMutablePointer<Bool>
    ) {
        var lower = range.lowerBound
        var next = columns.firstLifecycleEvent(atOrAfter: lower)
        while next < columns.lifecycle.count, columns.lifecycle[next] < range.upperBound {
            let index = columns.lifecycle[next]
            process(columns, lower..<index, decisions: decisions, created: created)
            decisions[index] = CaseDecision.notApplicable.rawValue
            // The actions before a relaunch reach the core that dies with it.
            if mode == .twoLayerGuarded { path.replayActions(before: index, of: columns.actions) }
            if columns.isRelaunch(index) { relaunchApp() } else { enterBackground() }
            if relaunch.totalBytes > relaunch.savedBytesBound {
                relaunch.stoppedAt = index
                return
            }
            lower = index + 1
            next += 1
        }
        process(columns, lower..<range.upperBound, decisions: decisions, created: created)
    }
}

extension _ConcreteCase {
    /// The app entered the background: `on-background` saves the consumed set now; the
    /// other persistences need no save point (`memory` never saves, `after-every-consume` has saved after
    /// every consume).
    mutating func enterBackground() {
        guard relaunch.persistence == .onBackground, let set = snapshottable() else { return }
        relaunch.saved = save(set)
    }

    /// The process was killed and started again. The window and the navigation path are lost;
    /// the consumed set restarts empty, or from what its persistence saved: the state at the kill
    /// (`after-every-consume`), or at the last background (`on-background`; empty if the app was
    /// never backgrounded). Envelopes created before stay created: the app persisted its pending
    /// route.
    mutating func relaunchApp() {
        path.relaunch()
        relaunch.relaunches += 1
        do {
            window = try W(configuration: relaunch.window)
        } catch {
            relaunch.failure = "relaunch: \(error)"
        }
        let saved: [UInt8]?
        switch relaunch.persistence {
        case .memory:
            saved = nil
        case .afterEveryConsume:
            if let set = snapshottable() { saved = save(set) } else { saved = nil }
        case .onBackground:
            saved = relaunch.saved
        }
        if let saved, let set = snapshottable() {
            restore(saved, as: set)
        } else {
            do {
                consumed = try C(configuration: relaunch.consumed)
            } catch {
                relaunch.failure = "relaunch: \(error)"
            }
        }
    }

    /// The consumed set, opened as snapshottable; records a failure for a set that is not.
    private mutating func snapshottable() -> (any SnapshottableConsumedSet)? {
        guard let set = consumed as? any SnapshottableConsumedSet else {
            relaunch.failure = "\(C.strategyID) cannot snapshot its state"
            return nil
        }
        return set
    }

    /// `set`'s snapshot, timed.
    private mutating func save(_ set: some SnapshottableConsumedSet) -> [UInt8] {
        let start = MonotonicClock.now()
        let bytes = set.snapshot()
        relaunch.snapshotNanoseconds &+= MonotonicClock.now() &- start
        relaunch.saves += 1
        relaunch.totalBytes += bytes.count
        relaunch.maximumBytes = max(relaunch.maximumBytes, bytes.count)
        return bytes
    }

    /// Rebuilds the consumed set from `bytes` with `set`'s type, timed.
    private mutating func restore<S: SnapshottableConsumedSet>(_ bytes: [UInt8], as _: S) {
        let start = MonotonicClock.now()
        do {
            let restored = try S(snapshot: bytes, configuration: relaunch.consumed)
            relaunch.restoreNanoseconds &+= MonotonicClock.now() &- start
            relaunch.restores += 1
            guard let restored = restored as? C else { return }
            consumed = restored
        } catch {
            relaunch.failure = "\(C.strategyID): restoring its own snapshot failed: \(error)"
        }
    }
}
