import class Foundation.NSLock
import struct Foundation.UUID

/// The two-layer dedupe behind a lock, for code that calls it from several threads or tasks.
///
/// The same calls as ``MainActorDeduplicator``, each made atomic: the clock is read inside the
/// lock, so decisions are taken, and recorded, in time order.
///
/// **Why `NSLock`.** The lock must work on iOS 16 and on Linux, in a module that imports no
/// platform library. `Synchronization.Mutex` needs iOS 18; `os_unfair_lock` exists only on
/// Darwin (and needs `import os` and a stable address); an actor would make every call `async`;
/// `DispatchQueue.sync` adds a closure and a queue hop per event. Foundation's `NSLock` is a
/// `pthread_mutex` on both platforms, uncontended in the common case, and Foundation is already
/// needed for `UUID`.
///
/// `@unchecked Sendable`: `_core` is read and written only while `_lock` is held, and both
/// strategies are `Sendable`, so nothing reachable from it is shared unprotected.
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

    /// Wraps `pipeline`.
    ///
    /// - Parameters:
    ///   - clock: where event times come from; the continuous clock from now by default.
    ///   - recorder: receives every event, under this deduplicator's lock.
    public init(
        pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock = .continuous(),
        recorder: (any TraceRecording)? = nil
    ) {
        _core = _DeduplicatorCore(pipeline: pipeline, clock: clock, recorder: recorder)
        _origin = clock._continuousOrigin
    }

    /// Builds both layers from shipped presets, which cannot fail.
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
        _lock.lock()
        defer { _lock.unlock() }
        guard _core._isPlain else { return _core._receivePayloadRecorded(route: route, envelope: envelope, source: source) }
        let fingerprint = RouteFingerprint(route: route)
        return _core.pipeline.receivePayload(fingerprint, envelope: EnvelopeID(uuid: envelope), at: Timestamp(ContinuousClock.now, since: _origin))
    }

    /// A payload whose route the app already digested.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    @inlinable
    public func receivePayload(_ fingerprint: RouteFingerprint, envelope: UUID, source: String = "") -> RoutingDecision {
        _lock.lock()
        defer { _lock.unlock() }
        guard _core._isPlain else { return _core._receivePayloadRecorded(fingerprint, envelope: envelope, source: source) }
        return _core.pipeline.receivePayload(fingerprint, envelope: EnvelopeID(uuid: envelope), at: Timestamp(ContinuousClock.now, since: _origin))
    }

    /// An envelope created earlier, emitted again (pending route, ready callback).
    ///
    /// - Complexity: the set's `consume`.
    @inlinable
    public func receiveEmit(envelope: UUID, source: String = "") -> RoutingDecision {
        _lock.lock()
        defer { _lock.unlock() }
        guard _core._isPlain else { return _core._receiveEmitRecorded(envelope: envelope, source: source) }
        return _core.pipeline.receiveEmit(envelope: EnvelopeID(uuid: envelope), at: Timestamp(ContinuousClock.now, since: _origin))
    }

    /// A copy of the two layers, taken under the lock.
    public var pipeline: TwoLayerPipeline<Window, Consumed> {
        _lock.lock()
        defer { _lock.unlock() }
        return _core.pipeline
    }
}

extension SharedDeduplicator where Window == RecommendedPreset.Window, Consumed == RecommendedPreset.ConsumedSet {
    /// The pair the reference run recommends, with its parameters (``RecommendedPreset``).
    public static func recommended(
        clock: DedupeClock = .continuous(), recorder: (any TraceRecording)? = nil
    ) -> SharedDeduplicator {
        SharedDeduplicator(window: RecommendedPreset.window, consumed: RecommendedPreset.consumedSet, clock: clock, recorder: recorder)
    }
}
