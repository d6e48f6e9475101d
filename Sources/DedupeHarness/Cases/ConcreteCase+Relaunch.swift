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
    /// Whether `range` holds a relaunch: a binary search, once per call of the loop, not per event.
    func hasRelaunch(in range: Range<Int>) -> Bool {
        guard !relaunches.isEmpty else { return false }
        let first = firstRelaunch(atOrAfter: range.lowerBound)
        return first < relaunches.count && relaunches[first] < range.upperBound
    }

    /// The position in `relaunches` of the first relaunch at or after event `index`.
    func firstRelaunch(atOrAfter index: Int) -> Int {
        var low = 0
        var high = relaunches.count
        while low < high {
            let middle = (low + high) / 2
            if relaunches[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension _ConcreteCase {
    /// Feeds a range that holds relaunches: the stretches between them through `process`, and
    /// each relaunch through `relaunchApp`.
    mutating func processAcrossRelaunches(
        _ columns: borrowing EventColumns, _ range: Range<Int>,
        decisions: UnsafeMutablePointer<UInt8>, created: UnsafeMutablePointer<Bool>
    ) {
        var lower = range.lowerBound
        var next = columns.firstRelaunch(atOrAfter: lower)
        while next < columns.relaunches.count, columns.relaunches[next] < range.upperBound {
            let index = columns.relaunches[next]
            process(columns, lower..<index, decisions: decisions, created: created)
            decisions[index] = CaseDecision.notApplicable.rawValue
            relaunchApp()
            lower = index + 1
            next += 1
        }
        process(columns, lower..<range.upperBound, decisions: decisions, created: created)
    }

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
