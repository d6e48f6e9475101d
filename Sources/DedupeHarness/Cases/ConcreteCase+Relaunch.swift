import PushDedupe

/// What a case needs at a relaunch: how its consumed set persists, the configurations to rebuild
/// its strategies from, and what the snapshots cost.
struct _RelaunchState {
    let persistence: CasePersistence
    let window: WindowConfiguration
    let consumed: ConsumedSetConfiguration
    var relaunches = 0
    var totalBytes = 0
    var maximumBytes = 0
    var snapshotNanoseconds: UInt64 = 0
    var restoreNanoseconds: UInt64 = 0
    /// Why a relaunch could not rebuild or restore a strategy; the correctness run throws it.
    var failure: String?

    init(persistence: CasePersistence, window: WindowConfiguration, consumed: ConsumedSetConfiguration) {
        self.persistence = persistence
        self.window = window
        self.consumed = consumed
    }

    /// The snapshot figures, for a `snapshot` case that saw a relaunch.
    var result: SnapshotResult? {
        guard persistence == .snapshot, relaunches > 0 else { return nil }
        let n = Double(relaunches)
        return SnapshotResult(
            relaunches: relaunches, maximumBytes: maximumBytes, meanBytes: Double(totalBytes) / n,
            meanSnapshotNanoseconds: Double(snapshotNanoseconds) / n, meanRestoreNanoseconds: Double(restoreNanoseconds) / n)
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

extension _ConcreteCase {
    /// Feeds a range that holds lifecycle markers: the stretches between them through `process`,
    /// each relaunch through `relaunchApp`, and each background through `enterBackground`.
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
            if columns.isRelaunch[index] { relaunchApp() } else { enterBackground() }
            lower = index + 1
            next += 1
        }
        process(columns, lower..<range.upperBound, decisions: decisions, created: created)
    }

    /// The app entered the background. Nothing in memory persistence or a snapshot taken at every
    /// relaunch changes; the state simply survives until a relaunch kills the process.
    mutating func enterBackground() {}

    /// The process was killed and started again. The window and the navigation path are lost;
    /// the consumed set restarts empty or from its snapshot. Envelopes created before stay
    /// created: the app persisted its pending route.
    mutating func relaunchApp() {
        path.relaunch()
        relaunch.relaunches += 1
        do {
            window = try W(configuration: relaunch.window)
        } catch {
            relaunch.failure = "relaunch: \(error)"
        }
        switch relaunch.persistence {
        case .memory:
            do {
                consumed = try C(configuration: relaunch.consumed)
            } catch {
                relaunch.failure = "relaunch: \(error)"
            }
        case .snapshot:
            guard let snapshottable = consumed as? any SnapshottableConsumedSet else {
                relaunch.failure = "\(C.strategyID) cannot snapshot its state"
                return
            }
            restore(snapshottable)
        }
    }

    /// Snapshots `set` (the consumed set, opened) and restores it, timing both.
    private mutating func restore<S: SnapshottableConsumedSet>(_ set: S) {
        let start = MonotonicClock.now()
        let bytes = set.snapshot()
        let written = MonotonicClock.now()
        do {
            let restored = try S(snapshot: bytes, configuration: relaunch.consumed)
            let end = MonotonicClock.now()
            guard let restored = restored as? C else { return }
            consumed = restored
            relaunch.snapshotNanoseconds &+= written &- start
            relaunch.restoreNanoseconds &+= end &- written
            relaunch.totalBytes += bytes.count
            relaunch.maximumBytes = max(relaunch.maximumBytes, bytes.count)
        } catch {
            relaunch.failure = "\(C.strategyID): restoring its own snapshot failed: \(error)"
        }
    }
}
