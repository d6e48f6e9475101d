/// The state both deduplicators share, and their out-of-line path: read the clock once, decide
/// (with or without layer 1), count, record, and save.
///
/// Whether an event takes this path is decided when something changes (`_isPlain`): the common
/// case (the continuous clock, no recorder, the window on, no save after every consume) is
/// inlined into each deduplicator's methods, so that it costs the bare pipeline's work plus one
/// branch and one increment.
@usableFromInline
struct _DeduplicatorCore<Window: FingerprintWindow, Consumed: ConsumedSet> {
    @usableFromInline var pipeline: TwoLayerPipeline<Window, Consumed>
    @usableFromInline var _counts = _DecisionCounts()
    /// The continuous clock, no recorder, the window on, and no store work per consume.
    @usableFromInline private(set) var _isPlain: Bool
    @usableFromInline var _isWindowEnabled = true
    @usableFromInline let clock: DedupeClock
    @usableFromInline let recorder: (any TraceRecording)?
    @usableFromInline let _persistence: _Persistence<Consumed>?

    init(
        pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock, recorder: (any TraceRecording)?,
        persistence: _Persistence<Consumed>? = nil
    ) {
        self.pipeline = pipeline
        self.clock = clock
        self.recorder = recorder
        _persistence = persistence
        _isPlain = false
        _updatePlain()
    }

    private mutating func _updatePlain() {
        _isPlain = clock._isContinuous && recorder == nil && _isWindowEnabled && !(_persistence?.needsEveryConsume ?? false)
    }

    /// Layer 1's run-time switch. Off, a payload goes straight to layer 2, as an emit does; the
    /// window keeps what it held, and layer 2 is untouched either way.
    var isWindowEnabled: Bool {
        get { _isWindowEnabled }
        set {
            _isWindowEnabled = newValue
            _updatePlain()
        }
    }

    /// A payload's decision: the bare pipeline reading the continuous clock in place (from
    /// `origin`, the facade's copy of the clock's origin) when `_isPlain`, the out-of-line path
    /// otherwise. Both facades call these, each inside its own isolation or lock.
    @inlinable @inline(__always)
    mutating func receivePayload(
        route: some StringProtocol, envelope: EnvelopeID, pushID: String?, source: String, origin: ContinuousClock.Instant
    ) -> RoutingDecision {
        guard _isPlain else { return _receivePayload(route: route, envelope: envelope, pushID: pushID, source: source) }
        return _countPlain(pipeline.receivePayload(RouteFingerprint(route: route), envelope: envelope, at: Timestamp(ContinuousClock.now, since: origin)))
    }

    @inlinable @inline(__always)
    mutating func receivePayload(
        _ fingerprint: RouteFingerprint, envelope: EnvelopeID, pushID: String?, source: String, origin: ContinuousClock.Instant
    ) -> RoutingDecision {
        guard _isPlain else { return _receivePayload(fingerprint, envelope: envelope, pushID: pushID, source: source) }
        return _countPlain(pipeline.receivePayload(fingerprint, envelope: envelope, at: Timestamp(ContinuousClock.now, since: origin)))
    }

    @inlinable @inline(__always)
    mutating func receiveEmit(envelope: EnvelopeID, source: String, origin: ContinuousClock.Instant) -> RoutingDecision {
        guard _isPlain else { return _receiveEmit(envelope: envelope, source: source) }
        return _countPlain(pipeline.receiveEmit(envelope: envelope, at: Timestamp(ContinuousClock.now, since: origin)))
    }

    @inlinable @inline(__always)
    mutating func _countPlain(_ decision: RoutingDecision) -> RoutingDecision {
        _counts.count(decision)
        return decision
    }

    /// `reserving`: a navigated envelope is consumed in memory, and its store write waits for
    /// ``commit(_:)`` (a router's reserve-then-commit).
    @inlinable @inline(never)
    mutating func _receivePayload(
        route: some StringProtocol, envelope: EnvelopeID, pushID: String?, source: String, reserving: Bool = false
    ) -> RoutingDecision {
        let now = clock.now()
        let decision = _decide(RouteFingerprint(route: route), envelope: envelope, at: now, reserving: reserving)
        recorder?.recordPayload(route: String(route), envelope: envelope, pushID: pushID, source: source, at: now, decision: decision)
        return decision
    }

    @inlinable @inline(never)
    mutating func _receivePayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, pushID: String?, source: String) -> RoutingDecision {
        let now = clock.now()
        let decision = _decide(fingerprint, envelope: envelope, at: now)
        recorder?.recordPayload(fingerprint, envelope: envelope, pushID: pushID, source: source, at: now, decision: decision)
        return decision
    }

    @inlinable @inline(never)
    mutating func _receiveEmit(envelope: EnvelopeID, source: String, reserving: Bool = false) -> RoutingDecision {
        let now = clock.now()
        let decision = pipeline.receiveEmit(envelope: envelope, at: now)
        _didDecide(decision, envelope: envelope, at: now, reserving: reserving)
        recorder?.recordEmit(envelope: envelope, source: source, at: now, decision: decision)
        return decision
    }

    @inlinable
    mutating func _decide(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, at now: Timestamp, reserving: Bool = false) -> RoutingDecision {
        let decision = _isWindowEnabled
            ? pipeline.receivePayload(fingerprint, envelope: envelope, at: now)
            : pipeline.receiveEmit(envelope: envelope, at: now)
        _didDecide(decision, envelope: envelope, at: now, reserving: reserving)
        return decision
    }

    /// Counts the decision and, after a consume that changed the set, lets the store record it.
    @inlinable
    mutating func _didDecide(_ decision: RoutingDecision, envelope: EnvelopeID, at now: Timestamp, reserving: Bool = false) {
        _counts.count(decision)
        if decision == .navigated, _persistence != nil { _storeDidConsume(envelope, at: now, reserving: reserving) }
    }

    /// Out of line: the store's work is system calls, not worth inlining into every call site.
    @usableFromInline
    mutating func _storeDidConsume(_ envelope: EnvelopeID, at now: Timestamp, reserving: Bool) {
        if reserving {
            _persistence?.didReserve(envelope, &pipeline.consumed, now: now)
        } else {
            _persistence?.didConsume(envelope, &pipeline.consumed, navigated: _counts.navigated, now: now)
        }
        _updatePlain()
    }

    /// Makes a reserved envelope's consume durable; nothing for one not reserved, or without a
    /// store.
    mutating func commit(_ envelope: EnvelopeID) {
        _persistence?.commit(envelope, &pipeline.consumed, navigated: _counts.navigated, now: clock.now())
        _updatePlain()
    }

    /// Records the background line, retries a waiting restore, then saves what changed if the
    /// store's policy says so.
    mutating func didEnterBackground() {
        let now = clock.now()
        recorder?.recordBackground(at: now)
        _persistence?.didEnterBackground(&pipeline.consumed, navigated: _counts.navigated, now: now)
        _updatePlain()
    }

    /// Retries a restore that is waiting for its file now, ignoring the back-off.
    mutating func retryRestore() -> RestoreOutcome {
        _persistence?.retryRestore(&pipeline.consumed, navigated: _counts.navigated, now: clock.now())
        _updatePlain()
        return restoreOutcome
    }

    /// Writes what the store does not hold yet; nothing for a store that does not persist.
    func save() throws(StoreError) {
        try _persistence?.save(pipeline.consumed, navigated: _counts.navigated)
    }

    var counters: DedupeCounters {
        var counters = _persistence?.counts ?? DedupeCounters()
        counters.navigated = _counts.navigated
        counters.suppressedByWindow = _counts.suppressedByWindow
        counters.suppressedByConsumedSet = _counts.suppressedByConsumedSet
        counters.storeBytesWritten = _persistence?.store.bytesWritten ?? 0
        counters.compactions = _persistence?.store.compactions ?? 0
        return counters
    }

    var restoreOutcome: RestoreOutcome { _persistence?.restoreOutcome ?? .notPersisted }

    var storeRepairs: [StoreRepair] { _persistence?.repairs ?? [] }

    var lastStoreError: StoreError? { _persistence?.lastError }

    var hasUnsavedChanges: Bool { _persistence?.hasUnsavedChanges(navigated: _counts.navigated) ?? false }
}

extension _DeduplicatorCore where Consumed: SnapshottableConsumedSet {
    /// Both layers, layer 2 restored from `store` when it holds a usable snapshot.
    init(
        window: Window, consumed configuration: ConsumedSetConfiguration, store: DedupeStore, clock: DedupeClock,
        recorder: (any TraceRecording)?
    ) throws(ConfigurationError) {
        var consumed = try Consumed(configuration: configuration)
        var persistence: _Persistence<Consumed>?
        if let opened = store.open(retaining: configuration.capacity) {
            let empty = consumed
            let coding = _Persistence<Consumed>.SetCoding(
                empty: { empty },
                decode: { (bytes) throws(SnapshotError) in
                    let stored = try _SnapshotReader(framing: bytes).storedStrategyID
                    let restored = try Consumed(migrating: bytes, configuration: configuration)
                    let outcome: RestoreOutcome = stored == Consumed.strategyID
                        ? .restored(ids: restored.count) : .migrated(from: stored, ids: restored.count)
                    return (restored, outcome)
                },
                snapshot: { $0.snapshot() },
                ids: { set in (Consumed.self as? any _IDListSnapshot.Type).flatMap { try? $0._snapshotIDs(set.snapshot()) } })
            let created = _Persistence(store: opened, policy: store.saving, retained: configuration.capacity, coding: coding)
            created.restore(&consumed, now: clock.now())
            persistence = created
        }
        self.init(pipeline: TwoLayerPipeline(window: window, consumed: consumed), clock: clock, recorder: recorder, persistence: persistence)
    }

    /// The preset's layers, which cannot fail to build.
    init(preset: DeduplicatorPreset<Window, Consumed>, store: DedupeStore, clock: DedupeClock, recorder: (any TraceRecording)?) {
        self = _buildingShippedPreset(preset, strategyID: Consumed.strategyID) { () throws(ConfigurationError) in
            try Self(
                window: Window(preset: preset.window), consumed: preset.consumedSet.configuration, store: store, clock: clock,
                recorder: recorder)
        }
    }
}

extension EnvelopeID {
    /// `EnvelopeID(token: pushID)`, specialized for `String` here, so that the deduplicators'
    /// inlined per-event path makes one direct call: O(*n*) in the id's UTF-8, no allocation.
    @usableFromInline
    static func _push(_ pushID: String) -> EnvelopeID {
        EnvelopeID(token: pushID)
    }
}
