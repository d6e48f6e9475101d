import struct Foundation.UUID

/// The state both deduplicators share, and their out-of-line path for a manual clock or an
/// attached recorder: read the clock once, convert the `UUID`, record, and hand the event to the
/// pipeline. Whether an event takes this path is decided once, at creation (`_isPlain`); the
/// common case (the continuous clock, no recorder) is inlined into each deduplicator's methods,
/// so that it costs the bare pipeline's work plus one branch.
@usableFromInline
struct _DeduplicatorCore<Window: FingerprintWindow, Consumed: ConsumedSet> {
    @usableFromInline var pipeline: TwoLayerPipeline<Window, Consumed>
    @usableFromInline let clock: DedupeClock
    @usableFromInline let recorder: (any TraceRecording)?
    /// The continuous clock and no recorder.
    @usableFromInline let _isPlain: Bool

    @usableFromInline
    init(pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock, recorder: (any TraceRecording)?) {
        self.pipeline = pipeline
        self.clock = clock
        self.recorder = recorder
        _isPlain = clock._isContinuous && recorder == nil
    }

    @inlinable @inline(never)
    mutating func _receivePayloadRecorded(route: some StringProtocol, envelope: UUID, source: String) -> RoutingDecision {
        let now = clock.now()
        let id = EnvelopeID(uuid: envelope)
        recorder?.recordPayload(route: route, envelope: id, source: source, at: now)
        return pipeline.receivePayload(RouteFingerprint(route: route), envelope: id, at: now)
    }

    @inlinable @inline(never)
    mutating func _receivePayloadRecorded(_ fingerprint: RouteFingerprint, envelope: UUID, source: String) -> RoutingDecision {
        let now = clock.now()
        let id = EnvelopeID(uuid: envelope)
        recorder?.recordPayload(fingerprint, envelope: id, source: source, at: now)
        return pipeline.receivePayload(fingerprint, envelope: id, at: now)
    }

    @inlinable @inline(never)
    mutating func _receiveEmitRecorded(envelope: UUID, source: String) -> RoutingDecision {
        let now = clock.now()
        let id = EnvelopeID(uuid: envelope)
        recorder?.recordEmit(envelope: id, source: source, at: now)
        return pipeline.receiveEmit(envelope: id, at: now)
    }
}
