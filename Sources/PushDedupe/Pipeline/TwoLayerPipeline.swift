/// The published two-layer dedupe, generic over one strategy per layer: the core an app adopts.
///
/// ```swift
/// var pipeline = TwoLayerPipeline(
///     window: try HashDequeWindow(configuration: .init(window: .milliseconds(500))),
///     consumed: try FIFOSet(configuration: .init(capacity: 4_096)))
/// let envelope = EnvelopeID(uuid: UUID())
/// // A payload normalized to a route, given a fresh envelope id:
/// pipeline.receivePayload(RouteFingerprint(route: "item:42"), envelope: envelope, at: .milliseconds(0))
/// // .navigated
/// // The same envelope replayed by the pending route when the host attaches, 2 s later:
/// pipeline.receiveEmit(envelope: envelope, at: .milliseconds(2_000))
/// // .suppressedByConsumedSet
/// ```
///
/// Consumption is a single test-and-set, made before the caller starts any navigation or
/// asynchronous work. So the envelope is marked on every path, including the caller's early
/// returns (no host, disabled tab), which is the article's rule without a call to forget.
///
/// - Complexity: one window admit per payload and one consume per envelope; nothing else.
public struct TwoLayerPipeline<Window: FingerprintWindow, Consumed: ConsumedSet> {
    /// Layer 1.
    public var window: Window
    /// Layer 2.
    public var consumed: Consumed

    @inlinable
    public init(window: Window, consumed: Consumed) {
        self.window = window
        self.consumed = consumed
    }

    /// A payload just normalized to a route. If layer 1 admits it, it becomes the envelope
    /// `envelope`, which is emitted and consumed in layer 2 at once.
    ///
    /// - Complexity: the window's `admit` plus, when admitted, the set's `consume`.
    @inlinable
    public mutating func receivePayload(
        _ fingerprint: RouteFingerprint, envelope: EnvelopeID, at now: Timestamp
    ) -> RoutingDecision {
        guard window.admit(fingerprint, at: now) else { return .suppressedByWindow }
        return receiveEmit(envelope: envelope, at: now)
    }

    /// An envelope already created, emitted again on another lifecycle path (pending-route
    /// replay, ready callback). It goes to layer 2 only.
    ///
    /// - Complexity: the set's `consume`.
    @inlinable
    public mutating func receiveEmit(envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision {
        consumed.consume(envelope, at: now) ? .navigated : .suppressedByConsumedSet
    }
}

/// A pipeline is as sendable as its two strategies; every strategy in this module is.
extension TwoLayerPipeline: Sendable where Window: Sendable, Consumed: Sendable {}
