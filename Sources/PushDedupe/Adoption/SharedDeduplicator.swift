import class Foundation.NSLock
import struct Foundation.URL
import struct Foundation.UUID

/// The two-layer dedupe behind a lock, for code that calls it from several threads or tasks.
///
/// The same calls as ``MainActorDeduplicator``, each made atomic: the clock is read inside the
/// lock, so decisions are taken, recorded and saved in time order.
///
/// **Why `NSLock`.** The lock must work on iOS 16 and on Linux, in a module that imports no
/// platform library. `Synchronization.Mutex` needs iOS 18; `os_unfair_lock` exists only on
/// Darwin (and needs `import os` and a stable address); an actor would make every call `async`;
/// `DispatchQueue.sync` adds a closure and a queue hop per event. Foundation's `NSLock` is a
/// `pthread_mutex` on both platforms, uncontended in the common case, and Foundation is already
/// needed for `UUID`.
///
/// `@unchecked Sendable`: `_core` (with its store's state) is read and written only while `_lock`
/// is held, and both strategies are `Sendable`, so nothing reachable from it is shared
/// unprotected.
///
/// - Complexity: per event, one lock and unlock plus ``MainActorDeduplicator``'s cost.
public final class SharedDeduplicator<Window: FingerprintWindow & Sendable, Consumed: ConsumedSet & Sendable>: @unchecked Sendable {
    @usableFromInline let _lock = NSLock()
    /// Unchecked exclusivity: every access holds `_lock`, which already excludes overlap (a
    /// re-entrant call would deadlock, not overlap).
    @exclusivity(unchecked) @usableFromInline var _core: _DeduplicatorCore<Window, Consumed>
    /// The continuous clock's origin, read in place by the inlined path (a resilient
    /// `ContinuousClock.Instant`, so the last stored property: the fields before it keep fixed
    /// offsets).
    @usableFromInline let _origin: ContinuousClock.Instant

    init(core: _DeduplicatorCore<Window, Consumed>) {
        _core = core
        _origin = core.clock._continuousOrigin
    }

    /// Wraps `pipeline`, kept in memory only.
    ///
    /// - Parameters:
    ///   - clock: where event times come from; the continuous clock from now by default.
    ///   - recorder: receives every event, under this deduplicator's lock.
    public convenience init(
        pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        self.init(core: _DeduplicatorCore(pipeline: pipeline, clock: clock, recorder: recorder))
    }

    /// Builds both layers from shipped presets, which cannot fail, kept in memory only.
    public convenience init(
        window: WindowPreset = .standard, consumed: ConsumedSetPreset = .standard,
        clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) {
        self.init(
            pipeline: TwoLayerPipeline(window: Window(preset: window), consumed: Consumed(preset: consumed)),
            clock: clock, recorder: recorder)
    }

    /// Runs `body` on the core under the lock: every call but the inlined per-event ones, which
    /// take the lock themselves so that no closure stands in their path.
    func _withCore<Result, Failure: Error>(
        _ body: (inout _DeduplicatorCore<Window, Consumed>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        _lock.lock()
        defer { _lock.unlock() }
        return try body(&_core)
    }

    /// A payload normalized to `route`, delivered by the push `pushID` (see
    /// ``MainActorDeduplicator`` on which id to pass).
    ///
    /// - Complexity: O(*n*) in `pushID`'s UTF-8, the window's `admit`, plus the set's `consume`
    ///   when admitted.
    @inlinable
    public func receivePayload(route: some StringProtocol, pushID: String, source: String = "") -> RoutingDecision {
        let envelope = EnvelopeID._push(pushID)
        _lock.lock()
        defer { _lock.unlock() }
        return _core.receivePayload(route: route, envelope: envelope, pushID: pushID, source: source, origin: _origin)
    }

    /// A payload whose route the app already digested, delivered by the push `pushID`.
    ///
    /// - Complexity: O(*n*) in `pushID`'s UTF-8, the window's `admit`, plus the set's `consume`
    ///   when admitted.
    @inlinable
    public func receivePayload(_ fingerprint: RouteFingerprint, pushID: String, source: String = "") -> RoutingDecision {
        let envelope = EnvelopeID._push(pushID)
        _lock.lock()
        defer { _lock.unlock() }
        return _core.receivePayload(fingerprint, envelope: envelope, pushID: pushID, source: source, origin: _origin)
    }

    /// The envelope of the push `pushID`, emitted again.
    ///
    /// - Complexity: O(*n*) in `pushID`'s UTF-8, plus the set's `consume`.
    @inlinable
    public func receiveEmit(pushID: String, source: String = "") -> RoutingDecision {
        let envelope = EnvelopeID._push(pushID)
        _lock.lock()
        defer { _lock.unlock() }
        return _core.receiveEmit(envelope: envelope, source: source, origin: _origin)
    }

    /// A navigation no push carries, normalized to `route`, with the envelope the app made.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(route: some StringProtocol, envelope: UUID, source: String = "") -> RoutingDecision {
        _lock.lock()
        defer { _lock.unlock() }
        return _core.receivePayload(route: route, envelope: EnvelopeID(uuid: envelope), pushID: nil, source: source, origin: _origin)
    }

    /// A navigation no push carries, whose route the app already digested.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(_ fingerprint: RouteFingerprint, envelope: UUID, source: String = "") -> RoutingDecision {
        _lock.lock()
        defer { _lock.unlock() }
        return _core.receivePayload(fingerprint, envelope: EnvelopeID(uuid: envelope), pushID: nil, source: source, origin: _origin)
    }

    /// An envelope the app made, emitted again.
    ///
    /// - Complexity: the set's `consume`.
    @inlinable
    public func receiveEmit(envelope: UUID, source: String = "") -> RoutingDecision {
        _lock.lock()
        defer { _lock.unlock() }
        return _core.receiveEmit(envelope: EnvelopeID(uuid: envelope), source: source, origin: _origin)
    }

    /// As ``MainActorDeduplicator/reservePayload(route:pushID:source:)``, under the lock.
    public func reservePayload(route: some StringProtocol, pushID: String, source: String = "") -> RoutingDecision {
        _withCore { $0._receivePayload(route: route, envelope: EnvelopeID._push(pushID), pushID: pushID, source: source, reserving: true) }
    }

    /// As ``MainActorDeduplicator/reserveEmit(pushID:source:)``, under the lock.
    public func reserveEmit(pushID: String, source: String = "") -> RoutingDecision {
        _withCore { $0._receiveEmit(envelope: EnvelopeID._push(pushID), source: source, reserving: true) }
    }

    /// As ``MainActorDeduplicator/commit(_:)``, under the lock.
    public func commit(_ envelope: EnvelopeID) {
        _withCore { $0.commit(envelope) }
    }

    /// As ``MainActorDeduplicator/didEnterBackground()``, under the lock.
    public func didEnterBackground() {
        _withCore { $0.didEnterBackground() }
    }

    /// As ``MainActorDeduplicator/save()``, under the lock.
    public func save() throws(StoreError) {
        try _withCore { (core) throws(StoreError) in try core.save() }
    }

    /// As ``MainActorDeduplicator/retryRestore()``, under the lock.
    @discardableResult
    public func retryRestore() -> RestoreOutcome {
        _withCore { $0.retryRestore() }
    }

    /// As ``MainActorDeduplicator/isWindowEnabled``: layer 1's run-time switch.
    public var isWindowEnabled: Bool {
        get { _withCore { $0.isWindowEnabled } }
        set { _withCore { $0.isWindowEnabled = newValue } }
    }

    /// What each layer did, and the saves, since init, read under the lock.
    ///
    /// - Complexity: O(1).
    public var counters: DedupeCounters { _withCore { $0.counters } }

    /// What the store held: at init, or at the restore that a wait ended.
    public var restoreOutcome: RestoreOutcome { _withCore { $0.restoreOutcome } }

    /// What the store repaired while reading its file.
    public var storeRepairs: [StoreRepair] { _withCore { $0.storeRepairs } }

    /// The most recent store error, of a save or a restore, or `nil` if none failed.
    public var lastStoreError: StoreError? { _withCore { $0.lastStoreError } }

    /// Whether events navigated since the store last saved the set.
    public var hasUnsavedChanges: Bool { _withCore { $0.hasUnsavedChanges } }

    /// A copy of the two layers, taken under the lock.
    public var pipeline: TwoLayerPipeline<Window, Consumed> { _withCore { $0.pipeline } }
}

extension SharedDeduplicator where Consumed: SnapshottableConsumedSet {
    /// Both layers, layer 2 restored from `store` and saved to it, as
    /// ``MainActorDeduplicator/init(window:consumed:store:clock:recorder:)``.
    ///
    /// - Throws: ``ConfigurationError`` when the set rejects `consumed`.
    public convenience init(
        window: Window, consumed: ConsumedSetConfiguration, store: DedupeStore, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) throws(ConfigurationError) {
        self.init(core: try _DeduplicatorCore(window: window, consumed: consumed, store: store, clock: clock, recorder: recorder))
    }

    /// A preset version's pair and parameters, layer 2 restored from `store` and saved to it.
    public convenience init(
        preset: DeduplicatorPreset<Window, Consumed>, store: DedupeStore = .none, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        self.init(core: _DeduplicatorCore(preset: preset, store: store, clock: clock, recorder: recorder))
    }

    /// A preset version with its own store design at `storeURL`:
    /// `SharedDeduplicator(preset: RecommendedPreset.v3, storeURL: url)`. The file's directory must
    /// exist; an earlier version's snapshot at `storeURL` migrates at the first launch.
    public convenience init(
        preset: DeduplicatorPreset<Window, Consumed>, storeURL: URL, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        self.init(preset: preset, store: preset.store(at: storeURL), clock: clock, recorder: recorder)
    }
}

extension SharedDeduplicator where Window == HashDequeWindow, Consumed == FIFOSet {
    /// ``RecommendedPreset/latest`` with `store`, as ``MainActorDeduplicator/recommended(store:clock:recorder:)``.
    public static func recommended(
        store: DedupeStore = .none, clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) -> SharedDeduplicator {
        SharedDeduplicator(preset: RecommendedPreset.latest, store: store, clock: clock, recorder: recorder)
    }
}
