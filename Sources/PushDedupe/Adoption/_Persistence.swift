/// A store's state inside a deduplicator: restores at init and whenever a restore had to wait,
/// records consumes as the store's design and policy say, and counts what happened. A class, so
/// that the deduplicator's inlined per-event path sees one fixed-size reference.
///
/// The rule it keeps: **never write over what could not be read.** While the store's file
/// cannot be read, a design that rewrites whole state does not write at all, and the ids
/// consumed meanwhile are merged into what a later restore reads; a newer version's file is
/// never written.
@usableFromInline
final class _Persistence<Consumed: ConsumedSet> {
    /// The set-specific work, captured where the set is known to be snapshottable.
    struct SetCoding {
        var empty: () -> Consumed
        /// A snapshot's set and the outcome naming where it came from.
        var decode: ([UInt8]) throws(SnapshotError) -> (Consumed, RestoreOutcome)
        var snapshot: (Consumed) -> [UInt8]
        /// The set's ids in the order that rebuilds it, or `nil` for a filter.
        var ids: (Consumed) -> [EnvelopeID]?
    }

    enum State: Equatable {
        /// Restored: writes go to the store.
        case ready
        /// The file could not be read; the next restore is due at `retryAt`.
        case waiting(retryAt: Timestamp, backoffNanoseconds: Int64)
        /// A newer version's file: never written.
        case readOnly
    }

    static var firstBackoffNanoseconds: Int64 { 1_000_000_000 }
    static var maximumBackoffNanoseconds: Int64 { 64_000_000_000 }

    let store: any ConsumedStore
    let policy: DedupeStore.SavingPolicy
    /// Ids the set retains: the most unrecorded ids worth keeping.
    let retained: Int
    private let coding: SetCoding
    private(set) var state: State = .ready
    private(set) var restoreOutcome: RestoreOutcome = .nothingStored
    private(set) var repairs: [StoreRepair] = []
    /// The store's share of ``DedupeCounters``; the deduplicator fills in the rest.
    private(set) var counts = DedupeCounters()
    private(set) var lastError: StoreError?
    /// Consumed ids not yet recorded (a failed append, a file not yet readable), oldest first;
    /// always empty for a design that writes whole state, which tracks `navigatedAtLastSave`.
    private var unrecorded: [EnvelopeID] = []
    /// Ids consumed while the restore waits, merged into what it then reads.
    private var sinceLaunch: [EnvelopeID] = []
    /// Ids consumed in memory whose store write waits for their commit (a router's
    /// reserve-then-commit), oldest first.
    private(set) var reserved: [EnvelopeID] = []
    private var navigatedAtLastSave = 0

    init(store: any ConsumedStore, policy: DedupeStore.SavingPolicy, retained: Int, coding: SetCoding) {
        self.store = store
        self.policy = store.writesWholeState ? policy : .afterEveryConsume
        self.retained = max(1, retained)
        self.coding = coding
        unrecorded.reserveCapacity(4)
    }

    /// Whether every consume must come through ``didConsume(_:_:navigated:now:)``: a store that
    /// records each one, or a restore still to merge.
    var needsEveryConsume: Bool { policy == .afterEveryConsume || state != .ready }

    /// Whether consumes since the last write are not in the store yet.
    func hasUnsavedChanges(navigated: Int) -> Bool {
        !unrecorded.isEmpty || (store.writesWholeState && navigated != navigatedAtLastSave)
    }

    /// Reads the store into `consumed`, merging what was consumed since a restore that had to
    /// wait. A file still unreadable schedules the next try; a file another store changed between
    /// the read and a migration's write is read again.
    func restore(_ consumed: inout Consumed, now: Timestamp) {
        var lastChange: StoreError?
        for _ in 0..<_StoreRead.attempts {
            do throws(StoreError) {
                try restoreOnce(&consumed, now: now)
                return
            } catch {
                lastChange = error
            }
        }
        if let lastChange { wait(after: lastChange, now: now) }
    }

    /// One restore; throws only ``StoreError/Kind/changedSinceRead``, when it must read again.
    private func restoreOnce(_ consumed: inout Consumed, now: Timestamp) throws(StoreError) {
        counts.restoreAttempts += 1
        let load: StoreLoad
        do throws(StoreError) {
            load = try store.load()
        } catch {
            switch error.kind {
            case .newerVersion, .notARegularFile:
                state = .readOnly
                restoreOutcome = .leftUntouched(error)
                counts.filesLeftUntouched += 1
            default:
                wait(after: error, now: now)
            }
            lastError = error
            return
        }
        repairs += load.repairs
        for repair in load.repairs { if case .movedAside = repair { counts.filesMovedAside += 1 } }
        var restored = coding.empty()
        var outcome: RestoreOutcome
        switch load.contents {
        case .nothing:
            outcome = load.repairs.last.map { .movedAside($0) } ?? .nothingStored
        case .ids(let ids):
            // Each id at its last record: a journal lists an id twice after two processes
            // consumed it, or mid-compaction (a kept record copied forward before the count
            // dropped), and a set replayed in first-seen order would take it for older than it is.
            for id in _JournalFormat.newestDistinct(ids, keep: ids.count) { _ = restored.consume(id, at: Timestamp(nanoseconds: 0)) }
            // A file moved aside with nothing to salvage started the set empty.
            let movedAside = load.repairs.last { if case .movedAside = $0 { true } else { false } }
            outcome = ids.isEmpty ? movedAside.map { .movedAside($0) } ?? .restored(ids: 0) : .restored(ids: restored.count)
        case .snapshot(let bytes):
            do throws(SnapshotError) {
                (restored, outcome) = try coding.decode(bytes)
            } catch {
                if let newer = _SnapshotFormat.newerVersion(bytes) {
                    state = .readOnly
                    restoreOutcome = .leftUntouched(StoreError(
                        path: store.path, kind: .newerVersion(found: Int(newer), supported: Int(_SnapshotFormat.version)),
                        reason: "\(error); the file is left untouched"))
                    counts.filesLeftUntouched += 1
                    return
                }
                do throws(StoreError) {
                    let repair = try store.moveAside(reason: "\(error)")
                    repairs.append(repair)
                    counts.filesMovedAside += 1
                    outcome = .movedAside(repair)
                } catch where error.kind == .changedSinceRead {
                    throw error
                } catch {
                    wait(after: error, now: now)
                    return
                }
            }
            if !store.writesWholeState, outcome.isRestored {
                // An earlier version's snapshot at a journal's path becomes a journal of its ids,
                // written whole beside it and renamed over it, before anything is appended, if
                // no other store (the app's extension, migrating too) changed it since the read.
                // A filter's bits hold no ids: its snapshot is moved aside, and the set keeps
                // them in memory.
                do throws(StoreError) {
                    if let ids = coding.ids(restored) {
                        try store.replace(with: ids, snapshot: { coding.snapshot(restored) })
                    } else {
                        repairs.append(try store.moveAside(reason: "a filter's snapshot holds no ids to journal"))
                        counts.filesMovedAside += 1
                    }
                } catch where error.kind == .changedSinceRead {
                    throw error
                } catch {
                    wait(after: error, now: now)
                    return
                }
            }
        }
        let waited = !sinceLaunch.isEmpty
        for id in sinceLaunch { _ = restored.consume(id, at: now) }
        sinceLaunch = []
        consumed = restored
        state = .ready
        restoreOutcome = outcome
        if waited && store.writesWholeState { navigatedAtLastSave = -1 }
    }

    private func wait(after error: StoreError, now: Timestamp) {
        counts.failedRestores += 1
        lastError = error
        let backoff: Int64
        if case .waiting(_, let previous) = state {
            backoff = min(2 * previous, Self.maximumBackoffNanoseconds)
        } else {
            backoff = Self.firstBackoffNanoseconds
        }
        state = .waiting(retryAt: Timestamp(nanoseconds: now.nanoseconds &+ backoff), backoffNanoseconds: backoff)
        restoreOutcome = .pending(error)
    }

    /// After a consume that changed the set: retries a restore that is due, then records the id.
    @usableFromInline
    func didConsume(_ id: EnvelopeID, _ consumed: inout Consumed, navigated: Int, now: Timestamp) {
        noteConsumed(id, &consumed, now: now)
        recordConsumed(id, consumed, navigated: navigated)
    }

    /// After a consume that changed the set, reserved: in memory now, written at ``commit``. A
    /// kill before then forgets it, so the route whose work it waits for is not lost.
    @usableFromInline
    func didReserve(_ id: EnvelopeID, _ consumed: inout Consumed, now: Timestamp) {
        noteConsumed(id, &consumed, now: now)
        reserved.append(id)
    }

    /// Writes a reserved id; nothing for an id not reserved.
    func commit(_ id: EnvelopeID, _ consumed: inout Consumed, navigated: Int, now: Timestamp) {
        guard let index = reserved.firstIndex(of: id) else { return }
        reserved.remove(at: index)
        if case .waiting(let retryAt, _) = state, now >= retryAt { restore(&consumed, now: now) }
        recordConsumed(id, consumed, navigated: navigated)
    }

    /// Keeps a consume for the merge while a restore waits, and retries the restore when due.
    private func noteConsumed(_ id: EnvelopeID, _ consumed: inout Consumed, now: Timestamp) {
        guard case .waiting(let retryAt, _) = state else { return }
        sinceLaunch.append(id)
        if sinceLaunch.count > 2 * retained { sinceLaunch.removeFirst(sinceLaunch.count - retained) }
        if now >= retryAt { restore(&consumed, now: now) }
    }

    private func recordConsumed(_ id: EnvelopeID, _ consumed: Consumed, navigated: Int) {
        if !store.writesWholeState {
            unrecorded.append(id)
            if unrecorded.count > 2 * retained { unrecorded.removeFirst(unrecorded.count - retained) }
        }
        guard policy == .afterEveryConsume else { return }
        try? record(consumed, navigated: navigated)
    }

    /// Writes what is not in the store yet: the unrecorded ids, or the whole set. A design that
    /// rewrites whole state does not write while its file is unread.
    func record(_ consumed: Consumed, navigated: Int) throws(StoreError) {
        switch state {
        case .ready: break
        case .readOnly:
            counts.refusedWrites += 1
            return
        case .waiting:
            guard !store.writesWholeState else {
                counts.deferredWrites += 1
                return
            }
        }
        // A whole-state write must not make reserved ids durable before their commit: it writes
        // the set without them, which only a set that lists its ids can build. A filter's
        // write waits for the commits.
        let committedIDs: [EnvelopeID]?
        if store.writesWholeState && !reserved.isEmpty {
            guard let ids = coding.ids(consumed) else {
                counts.deferredWrites += 1
                return
            }
            committedIDs = ids.filter { !reserved.contains($0) }
        } else {
            committedIDs = nil
        }
        guard hasUnsavedChanges(navigated: navigated) else { return }
        do throws(StoreError) {
            try store.append(unrecorded, snapshot: {
                guard let committedIDs else { return coding.snapshot(consumed) }
                var committed = coding.empty()
                for id in committedIDs { _ = committed.consume(id, at: Timestamp(nanoseconds: 0)) }
                return coding.snapshot(committed)
            })
        } catch {
            counts.failedSaves += 1
            lastError = error
            throw error
        }
        counts.saves += 1
        unrecorded.removeAll(keepingCapacity: true)
        // Saved without the reserved ids: their commit writes again.
        navigatedAtLastSave = committedIDs == nil ? navigated : -1
    }

    /// The app's explicit save: as ``record(_:navigated:)``, but a write the state forbids is an
    /// error the caller sees.
    func save(_ consumed: Consumed, navigated: Int) throws(StoreError) {
        switch state {
        case .ready: break
        case .readOnly, .waiting:
            if case .leftUntouched(let error) = restoreOutcome { throw error }
            if store.writesWholeState, let lastError { throw lastError }
        }
        try record(consumed, navigated: navigated)
    }

    /// At the app's background callback: retries a waiting restore, then writes what changed
    /// unless the app saves by hand.
    func didEnterBackground(_ consumed: inout Consumed, navigated: Int, now: Timestamp) {
        retryRestore(&consumed, navigated: navigated, now: now)
        guard policy != .manual else { return }
        try? record(consumed, navigated: navigated)
    }

    /// Retries a waiting restore now, whatever the back-off (for the app's
    /// protected-data-available callback), then writes what the wait held back.
    func retryRestore(_ consumed: inout Consumed, navigated: Int, now: Timestamp) {
        guard case .waiting = state else { return }
        restore(&consumed, now: now)
        if state == .ready && policy == .afterEveryConsume { try? record(consumed, navigated: navigated) }
    }
}
