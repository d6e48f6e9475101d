import PushDedupe

/// A team's whole router dedupe as one type: what most apps ship, one function rather than two
/// layers. The bench runs it wherever it runs a two-layer pipeline, on the same events, against
/// the published code.
///
/// It has the published code's two entry points: ``receivePayload(_:envelope:at:)`` right after a
/// payload is normalized to a route, and ``receiveEmit(envelope:at:)`` at the router's entry for
/// an envelope emitted again (a pending route, a ready callback). Time is always the `now` given:
/// a conformer never reads a clock, so every run is reproducible.
///
/// ```swift
/// struct TeamRouterDedupe: DedupePipeline {
///     static let strategyID = "team-router"
///     static let guarantee = Guarantee.exact
///     var recent: [String: Date] = [:]
///     var lastHandledID: EnvelopeID?
///     init(window: WindowConfiguration, consumed: ConsumedSetConfiguration) throws(ConfigurationError) {}
///     mutating func receivePayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision { … }
///     mutating func receiveEmit(envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision { … }
/// }
/// ```
///
/// `TwoLayerPipeline`'s methods have the same signatures.
public protocol DedupePipeline: Sendable {
    /// The stable kebab-case id the reports name it by, e.g. `team-router`.
    static var strategyID: String { get }

    /// What the whole pipeline promises by construction. A pipeline declared `exact` that drops
    /// a wanted navigation no exact pipeline would is flagged by the bench and never recommended.
    static var guarantee: Guarantee { get }

    /// Builds the pipeline from the run's sizing: the fields it reads (declared at registration)
    /// of `window` and `consumed`.
    init(window: WindowConfiguration, consumed: ConsumedSetConfiguration) throws(ConfigurationError)

    /// A payload just normalized to a route: `fingerprint` is the route's, `envelope` the id the
    /// router would consume for it.
    mutating func receivePayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision

    /// An envelope already created, emitted again on another lifecycle path.
    mutating func receiveEmit(envelope: EnvelopeID, at now: Timestamp) -> RoutingDecision
}
