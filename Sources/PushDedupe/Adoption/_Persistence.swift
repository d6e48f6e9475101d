import struct Foundation.URL

/// A file store's state inside a deduplicator: restores at init, saves as its policy says, and
/// keeps the save counts and the last error. A class, so that the deduplicator's inlined
/// per-event path sees one fixed-size reference instead of a resilient `URL`.
@usableFromInline
final class _Persistence<Consumed: ConsumedSet> {
    let url: URL
    let policy: DedupeStore.SavingPolicy
    let fileSystem: any _StoreFileSystem
    let snapshot: (Consumed) -> [UInt8]
    let restoreOutcome: RestoreOutcome
    private(set) var saves = 0
    private(set) var failedSaves = 0
    private(set) var lastError: DedupeStore.SaveError?
    /// The navigated count when the file last matched the set: the set has changed since
    /// whenever the count differs (each navigated event is exactly one consume that changed it).
    private var navigatedAtLastSave: Int

    init(
        url: URL, policy: DedupeStore.SavingPolicy, fileSystem: any _StoreFileSystem,
        restoreOutcome: RestoreOutcome, snapshot: @escaping (Consumed) -> [UInt8]
    ) {
        self.url = url
        self.policy = policy
        self.fileSystem = fileSystem
        self.restoreOutcome = restoreOutcome
        self.snapshot = snapshot
        navigatedAtLastSave = 0
    }

    /// Whether `navigated` events happened since the last successful save.
    func hasUnsavedChanges(navigated: Int) -> Bool { navigated != navigatedAtLastSave }

    /// Writes the set over the file. A failure leaves the file and the set as they were.
    func save(_ consumed: Consumed, navigated: Int) throws(DedupeStore.SaveError) {
        do {
            try fileSystem.replace(url, with: snapshot(consumed))
        } catch {
            failedSaves += 1
            let failure = DedupeStore.SaveError(url: url, reason: "\(error)")
            lastError = failure
            throw failure
        }
        saves += 1
        navigatedAtLastSave = navigated
    }

    /// After a consume that changed the set: saves under `.afterEveryConsume`.
    @usableFromInline
    func didConsume(_ consumed: Consumed, navigated: Int) {
        guard policy == .afterEveryConsume else { return }
        try? save(consumed, navigated: navigated)
    }

    /// At the app's background callback: saves what changed unless the app saves by hand (under
    /// `.afterEveryConsume` that retries a failed save).
    func didEnterBackground(_ consumed: Consumed, navigated: Int) {
        guard policy != .manual, hasUnsavedChanges(navigated: navigated) else { return }
        try? save(consumed, navigated: navigated)
    }
}

extension _Persistence where Consumed: SnapshottableConsumedSet {
    /// The set the file at `url` holds, or `nil` with the reason to start empty.
    static func restore(
        _ url: URL, fileSystem: any _StoreFileSystem, configuration: ConsumedSetConfiguration
    ) -> (Consumed?, RestoreOutcome) {
        let bytes: [UInt8]?
        do {
            bytes = try fileSystem.contents(of: url)
        } catch {
            return (nil, .discarded(.unreadable("\(error)")))
        }
        guard let bytes else { return (nil, .noSnapshot) }
        guard !bytes.isEmpty else { return (nil, .discarded(.emptyFile)) }
        do {
            let stored = try _SnapshotReader(framing: bytes).storedStrategyID
            let consumed = try Consumed(migrating: bytes, configuration: configuration)
            let outcome: RestoreOutcome = stored == Consumed.strategyID
                ? .restored(ids: consumed.count) : .migrated(from: stored, ids: consumed.count)
            return (consumed, outcome)
        } catch {
            return (nil, .discarded(.invalidSnapshot(error)))
        }
    }
}
