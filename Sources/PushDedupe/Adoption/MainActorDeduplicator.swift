import struct Foundation.URL
import struct Foundation.UUID

/// The two-layer dedupe for a router on the main actor, keyed on the push's own id and kept
/// across launches:
///
/// ```swift
/// let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, store: .journal(storeURL))
/// let first = dedupe.receivePayload(route: "item:42", pushID: messageID)   // .navigated
/// let again = dedupe.receiveEmit(pushID: messageID)                        // .suppressedByConsumedSet
/// ```
///
/// **Which id.** Key every event of a push on the id the push carries: the app server's own
/// message id in the payload (ask the server to put one in every payload), or
/// `UNNotificationRequest.identifier`. One push reaches the router several times: delivered
/// twice (sent to two device tokens), handed over by both the launch options and `didReceive`,
/// or replayed as a stale initial notification after a relaunch. Those deliveries are one
/// envelope, which layer 2 navigates once, only when the envelope id comes from the push; a
/// `UUID()` minted per delivery makes each one new. The `UUID` calls are for navigations that no
/// push carries (a button tap, a deep link the app builds itself): there the app's own `UUID`
/// is the identity.
///
/// It reads the time of every event from its ``DedupeClock`` (the continuous clock unless a test
/// injects a ``ManualClock``); the strategies never read a clock. Call `receivePayload` right
/// after a payload is normalized to a route, `receiveEmit` at the router's entry for every
/// re-emitted envelope, before any early return or async work, and `didEnterBackground()` from
/// the app's background callback (see `Guides/Pipeline.md`).
///
/// Everything about it is main-actor isolated, as a router is: it holds a mutable pipeline and
/// needs no lock. For a deduplicator shared across threads, see ``SharedDeduplicator``.
///
/// - Complexity: per event, one clock read plus the pipeline's call and one counter increment;
///   no allocation beyond the strategies' own; one dynamic call when a recorder is attached;
///   one store write per navigated event (the snapshot design: under
///   ``DedupeStore/SavingPolicy/afterEveryConsume``).
@MainActor
public final class MainActorDeduplicator<Window: FingerprintWindow, Consumed: ConsumedSet> {
    /// Unchecked exclusivity: every access is main-actor isolated and none re-enters (a
    /// recorder must not call back into its deduplicator), so the runtime's per-call access
    /// tracking would only cost time.
    @exclusivity(unchecked) @usableFromInline var _core: _DeduplicatorCore<Window, Consumed>
    /// The continuous clock's origin, read in place by the inlined path (a resilient
    /// `ContinuousClock.Instant`, so the last stored property: the fields before it keep fixed
    /// offsets).
    @usableFromInline let _origin: ContinuousClock.Instant

    init(core: _DeduplicatorCore<Window, Consumed>) {
        _core = core
        _origin = core.clock._continuousOrigin
    }

    /// Wraps `pipeline`, kept in memory only: nothing is restored or saved.
    ///
    /// - Parameters:
    ///   - clock: where event times come from; the continuous clock from now by default.
    ///   - recorder: receives every event, e.g. a ``TraceRecorder`` in debug builds.
    public convenience init(
        pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        self.init(core: _DeduplicatorCore(pipeline: pipeline, clock: clock, recorder: recorder))
    }

    /// Builds both layers from shipped presets, which cannot fail, kept in memory only:
    /// `MainActorDeduplicator<HashDequeWindow, FIFOSet>(consumed: .compact)`.
    public convenience init(
        window: WindowPreset = .standard, consumed: ConsumedSetPreset = .standard,
        clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) {
        self.init(
            pipeline: TwoLayerPipeline(window: Window(preset: window), consumed: Consumed(preset: consumed)),
            clock: clock, recorder: recorder)
    }

    /// A payload just normalized to `route`, delivered by the push whose id is `pushID`: the
    /// envelope is `EnvelopeID(token: pushID)`, so every delivery of one push is one envelope.
    ///
    /// - Parameter source: a label for the trace recorder (`tap`, `cold_launch`); ignored
    ///   without one.
    /// - Complexity: O(*n*) in `pushID`'s UTF-8, the window's `admit`, plus the set's `consume`
    ///   when admitted.
    @inlinable
    public func receivePayload(route: some StringProtocol, pushID: String, source: String = "") -> RoutingDecision {
        _core.receivePayload(route: route, envelope: EnvelopeID._push(pushID), pushID: pushID, source: source, origin: _origin)
    }

    /// A payload whose route the app already digested, delivered by the push `pushID`.
    ///
    /// - Complexity: O(*n*) in `pushID`'s UTF-8, the window's `admit`, plus the set's `consume`
    ///   when admitted.
    @inlinable
    public func receivePayload(_ fingerprint: RouteFingerprint, pushID: String, source: String = "") -> RoutingDecision {
        _core.receivePayload(fingerprint, envelope: EnvelopeID._push(pushID), pushID: pushID, source: source, origin: _origin)
    }

    /// The envelope of the push `pushID`, emitted again (pending route, ready callback, the
    /// initial notification after a relaunch).
    ///
    /// - Complexity: O(*n*) in `pushID`'s UTF-8, plus the set's `consume`.
    @inlinable
    public func receiveEmit(pushID: String, source: String = "") -> RoutingDecision {
        _core.receiveEmit(envelope: EnvelopeID._push(pushID), source: source, origin: _origin)
    }

    /// A navigation no push carries (a button tap), normalized to `route`, with the envelope the
    /// app made for it.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(route: some StringProtocol, envelope: UUID, source: String = "") -> RoutingDecision {
        _core.receivePayload(route: route, envelope: EnvelopeID(uuid: envelope), pushID: nil, source: source, origin: _origin)
    }

    /// A navigation no push carries, whose route the app already digested.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(_ fingerprint: RouteFingerprint, envelope: UUID, source: String = "") -> RoutingDecision {
        _core.receivePayload(fingerprint, envelope: EnvelopeID(uuid: envelope), pushID: nil, source: source, origin: _origin)
    }

    /// An envelope the app made, emitted again.
    ///
    /// - Complexity: the set's `consume`.
    @inlinable
    public func receiveEmit(envelope: UUID, source: String = "") -> RoutingDecision {
        _core.receiveEmit(envelope: EnvelopeID(uuid: envelope), source: source, origin: _origin)
    }

    /// As ``receivePayload(route:pushID:source:)``, but a `.navigated` envelope is only reserved:
    /// consumed in memory, so its replay in this process is dropped, and written to the store at
    /// ``commit(_:)``, when the route is shown. A kill before the commit forgets it, so the tap
    /// whose screen never appeared navigates again at the next launch (`Guides/Router.md`,
    /// reserve-then-commit).
    ///
    /// - Complexity: as `receivePayload`; the store's write moves to `commit`.
    public func reservePayload(route: some StringProtocol, pushID: String, source: String = "") -> RoutingDecision {
        _core._receivePayload(route: route, envelope: EnvelopeID._push(pushID), pushID: pushID, source: source, reserving: true)
    }

    /// As ``receiveEmit(pushID:source:)``, reserving a `.navigated` envelope until ``commit(_:)``.
    public func reserveEmit(pushID: String, source: String = "") -> RoutingDecision {
        _core._receiveEmit(envelope: EnvelopeID._push(pushID), source: source, reserving: true)
    }

    /// Writes a reserved envelope's consume to the store; nothing for an envelope not reserved.
    ///
    /// - Complexity: the store's write of one id (the snapshot design: the whole set, once no
    ///   reservation is left).
    public func commit(_ envelope: EnvelopeID) {
        _core.commit(envelope)
    }

    /// Call from the app's background callback (`sceneDidEnterBackground`,
    /// `applicationDidEnterBackground`), the last one an app can count on before iOS kills it:
    /// records a `background` line, retries a restore still waiting for its file, and saves what
    /// the store does not hold yet (``DedupeStore/SavingPolicy/onBackground``, or a failed save
    /// to retry).
    public func didEnterBackground() {
        _core.didEnterBackground()
    }

    /// Writes to the store what it does not hold yet, for apps that batch
    /// (``DedupeStore/SavingPolicy/manual``); nothing for ``DedupeStore/none``.
    ///
    /// - Throws: ``StoreError``; the set in memory is unchanged, and the store keeps what it
    ///   held. A store whose file could not be read yet, or is a newer version's, is not
    ///   written.
    /// - Complexity: the design's write: O(size of the set) for a snapshot, O(unwritten ids) for
    ///   the others.
    public func save() throws(StoreError) {
        try _core.save()
    }

    /// Retries a restore that is waiting for its file (``RestoreOutcome/pending(_:)``) now,
    /// whatever the back-off: call it from `applicationProtectedDataDidBecomeAvailable`, when
    /// Data Protection releases the file. What it reads is merged with what was consumed since.
    @discardableResult
    public func retryRestore() -> RestoreOutcome {
        _core.retryRestore()
    }

    /// Layer 1's run-time switch, e.g. a remote kill switch: `false` sends every payload straight
    /// to layer 2, as if the window never held it, while layer 2 keeps everything it consumed. It
    /// guards against a window that drops a wanted navigation: a user who re-taps within the
    /// window, on purpose, for a screen already left, gets nothing. Layer 2 still stops every
    /// re-delivery of the same push.
    public var isWindowEnabled: Bool {
        get { _core.isWindowEnabled }
        set { _core.isWindowEnabled = newValue }
    }

    /// What each layer did, and the saves, since init.
    ///
    /// - Complexity: O(1).
    public var counters: DedupeCounters { _core.counters }

    /// What the store held: at init, or at the restore that a wait ended.
    public var restoreOutcome: RestoreOutcome { _core.restoreOutcome }

    /// What the store repaired while reading its file (a torn tail cut, a file moved aside).
    public var storeRepairs: [StoreRepair] { _core.storeRepairs }

    /// The most recent store error, of a save or a restore (kept after later successes;
    /// `counters` counts them), or `nil` if none failed.
    public var lastStoreError: StoreError? { _core.lastStoreError }

    /// Whether events navigated since the store last saved the set.
    public var hasUnsavedChanges: Bool { _core.hasUnsavedChanges }

    /// The two layers, e.g. to read their `count` or `footprint`.
    public var pipeline: TwoLayerPipeline<Window, Consumed> { _core.pipeline }
}

extension MainActorDeduplicator where Consumed: SnapshottableConsumedSet {
    /// Both layers, layer 2 restored from `store` (see ``restoreOutcome``) and saved to it.
    ///
    /// ```swift
    /// let dedupe = try MainActorDeduplicator<HashDequeWindow, FIFOSet>(
    ///     window: HashDequeWindow(configuration: .init(window: .milliseconds(500), capacity: 8)),
    ///     consumed: .init(capacity: 448), store: .journal(url))
    /// ```
    ///
    /// - Throws: ``ConfigurationError`` when the set rejects `consumed`.
    public convenience init(
        window: Window, consumed: ConsumedSetConfiguration, store: DedupeStore, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) throws(ConfigurationError) {
        self.init(core: try _DeduplicatorCore(window: window, consumed: consumed, store: store, clock: clock, recorder: recorder))
    }

    /// A preset version's pair and parameters, layer 2 restored from `store` and saved to it:
    /// `MainActorDeduplicator(preset: RecommendedPreset.v3, store: .journal(url))`.
    public convenience init(
        preset: DeduplicatorPreset<Window, Consumed>, store: DedupeStore = .none, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        self.init(core: _DeduplicatorCore(preset: preset, store: store, clock: clock, recorder: recorder))
    }

    /// A preset version with its own store design at `storeURL`:
    /// `MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: url)`. The file's directory must
    /// exist; an earlier version's snapshot at `storeURL` migrates at the first launch.
    public convenience init(
        preset: DeduplicatorPreset<Window, Consumed>, storeURL: URL, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        self.init(preset: preset, store: preset.store(at: storeURL), clock: clock, recorder: recorder)
    }
}

extension MainActorDeduplicator where Window == HashDequeWindow, Consumed == FIFOSet {
    /// ``RecommendedPreset/latest``'s pair and parameters with `store`. Every version has these
    /// types, so an app's stored property keeps its type when a version is added; its saved set
    /// migrates. Name a version (`init(preset:storeURL:clock:recorder:)`) to pin the parameters
    /// and take the version's store design.
    public static func recommended(
        store: DedupeStore = .none, clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) -> MainActorDeduplicator {
        MainActorDeduplicator(preset: RecommendedPreset.latest, store: store, clock: clock, recorder: recorder)
    }
}
