import struct Foundation.UUID

/// What both deduplicators do per event: read the clock once, convert the `UUID`, record if a
/// recorder is attached, and hand the event to the pipeline. Generic and inlinable, so the
/// per-event path is the bare pipeline's plus one clock read and one branch.
@usableFromInline
struct _DeduplicatorCore<Window: FingerprintWindow, Consumed: ConsumedSet> {
    @usableFromInline var pipeline: TwoLayerPipeline<Window, Consumed>
    @usableFromInline let clock: DedupeClock
    @usableFromInline let recorder: (any TraceRecording)?

    @usableFromInline
    init(pipeline: TwoLayerPipeline<Window, Consumed>, clock: DedupeClock, recorder: (any TraceRecording)?) {
        self.pipeline = pipeline
        self.clock = clock
        self.recorder = recorder
    }

    @inlinable @inline(__always)
    mutating func receivePayload(route: some StringProtocol, envelope: UUID, source: String) -> RoutingDecision {
        let now = clock.now()
        let id = EnvelopeID(uuid: envelope)
        if let recorder { recorder.recordPayload(route: route, envelope: id, source: source, at: now) }
        return pipeline.receivePayload(RouteFingerprint(route: route), envelope: id, at: now)
    }

    @inlinable @inline(__always)
    mutating func receivePayload(_ fingerprint: RouteFingerprint, envelope: UUID, source: String) -> RoutingDecision {
        let now = clock.now()
        let id = EnvelopeID(uuid: envelope)
        if let recorder { recorder.recordPayload(fingerprint, envelope: id, source: source, at: now) }
        return pipeline.receivePayload(fingerprint, envelope: id, at: now)
    }

    @inlinable @inline(__always)
    mutating func receiveEmit(envelope: UUID, source: String) -> RoutingDecision {
        let now = clock.now()
        let id = EnvelopeID(uuid: envelope)
        if let recorder { recorder.recordEmit(envelope: id, source: source, at: now) }
        return pipeline.receiveEmit(envelope: id, at: now)
    }
}
