import struct Foundation.UUID

/// The two-layer dedupe for a router on the main actor, in three lines:
///
/// ```swift
/// let dedupe = MainActorDeduplicator.recommended()
/// let first = dedupe.receivePayload(route: "item:42", envelope: envelopeID)   // .navigated
/// let replay = dedupe.receiveEmit(envelope: envelopeID)                       // .suppressedByConsumedSet
/// ```
///
/// It reads the time of every event from its ``DedupeClock`` (the continuous clock unless a test
/// injects a ``ManualClock``) and converts the envelope's `UUID`, so the app passes only what it
/// has. The strategies still never read a clock. Call `receivePayload` right after a payload is
/// normalized to a route, and `receiveEmit` at the router's entry for every re-emitted envelope,
/// before any early return or async work (see `Guides/Pipeline.md`).
///
/// Everything about it is main-actor isolated, as a router is: it holds a mutable pipeline and
/// needs no lock. For a deduplicator shared across threads, see ``SharedDeduplicator``.
///
/// - Complexity: per event, one clock read plus the pipeline's call; no allocation beyond the
///   strategies' own, and one dynamic call when a recorder is attached.
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

    /// Wraps `pipeline`.
    ///
    /// - Parameters:
    ///   - clock: where event times come from; the continuous clock from now by default.
    ///   - recorder: receives every event, e.g. a ``TraceRecorder`` in debug builds.
    public init(
        pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        _core = _DeduplicatorCore(pipeline: pipeline, clock: clock, recorder: recorder)
        _origin = clock._continuousOrigin
    }

    /// Builds both layers from shipped presets, which cannot fail:
    /// `MainActorDeduplicator<HashDequeWindow, FIFOSet>(consumed: .compact)`.
    public convenience init(
        window: WindowPreset = .standard, consumed: ConsumedSetPreset = .standard,
        clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) {
        self.init(
            pipeline: TwoLayerPipeline(window: Window(preset: window), consumed: Consumed(preset: consumed)),
            clock: clock, recorder: recorder)
    }

    /// A payload just normalized to `route`, with the fresh envelope `envelope`.
    ///
    /// - Parameter source: a label for the trace recorder (`tap`, `cold_launch`); ignored
    ///   without one.
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(route: some StringProtocol, envelope: UUID, source: String = "") -> RoutingDecision {
        guard _core._isPlain else { return _core._receivePayloadRecorded(route: route, envelope: envelope, source: source) }
        let fingerprint = RouteFingerprint(route: route)
        return _core.pipeline.receivePayload(fingerprint, envelope: EnvelopeID(uuid: envelope), at: Timestamp(ContinuousClock.now, since: _origin))
    }

    /// A payload whose route the app already digested.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(_ fingerprint: RouteFingerprint, envelope: UUID, source: String = "") -> RoutingDecision {
        guard _core._isPlain else { return _core._receivePayloadRecorded(fingerprint, envelope: envelope, source: source) }
        return _core.pipeline.receivePayload(fingerprint, envelope: EnvelopeID(uuid: envelope), at: Timestamp(ContinuousClock.now, since: _origin))
    }

    /// An envelope created earlier, emitted again (pending route, ready callback).
    ///
    /// - Complexity: the set's `consume`.
    @inlinable
    public func receiveEmit(envelope: UUID, source: String = "") -> RoutingDecision {
        guard _core._isPlain else { return _core._receiveEmitRecorded(envelope: envelope, source: source) }
        return _core.pipeline.receiveEmit(envelope: EnvelopeID(uuid: envelope), at: Timestamp(ContinuousClock.now, since: _origin))
    }

    /// The two layers, e.g. to read their `count` or `footprint`.
    public var pipeline: TwoLayerPipeline<Window, Consumed> { _core.pipeline }
}

extension MainActorDeduplicator where Window == RecommendedPreset.Window, Consumed == RecommendedPreset.ConsumedSet {
    /// The pair the reference run recommends, with its parameters (``RecommendedPreset``).
    public static func recommended(
        clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) -> MainActorDeduplicator {
        MainActorDeduplicator(window: RecommendedPreset.window, consumed: RecommendedPreset.consumedSet, clock: clock, recorder: recorder)
    }
}
