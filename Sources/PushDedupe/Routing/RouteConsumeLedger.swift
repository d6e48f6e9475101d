/// Where a ``NavigationRouter`` gets each envelope's decision and commits its consume: the two
/// dedupe layers with a store behind them.
///
/// The contract splits the consume in two, so that a router can reserve an envelope before its
/// async work and make that durable only when the work ends (``ConsumeTiming``):
/// - **Reserve.** ``reservePayload(fingerprint:pushID:)`` and ``reserveEmit(pushID:)`` decide as
///   `MainActorDeduplicator.receivePayload` and `receiveEmit` do, and a `.navigated` envelope is
///   consumed in memory before the call returns, so its replay in this process is dropped.
/// - **Commit.** ``commit(_:)`` makes the envelope's consume durable: after a kill, the next
///   launch's ledger drops its replay. A reserved envelope never committed is forgotten at a kill,
///   so its replay after the next launch navigates.
///
/// ``MainActorDeduplicator`` is the ledger an app uses: its `reservePayload` / `reserveEmit` keep
/// a navigated envelope out of its store until `commit(_:)`.
@MainActor
public protocol RouteConsumeLedger: AnyObject {
    /// Layers 1 and 2 for a payload just normalized to a route whose fingerprint is
    /// `fingerprint`, delivered by the push whose id is `pushID` (its envelope is
    /// `EnvelopeID(token: pushID)`); reserves the envelope when the decision is `.navigated`.
    ///
    /// - Complexity: the window's `admit`, plus the set's `consume` when admitted.
    func reservePayload(fingerprint: String, pushID: String) -> RoutingDecision

    /// Layer 2 for the envelope of push `pushID`, emitted again (pending route, ready callback);
    /// reserves it when the decision is `.navigated`.
    ///
    /// - Complexity: the set's `consume`.
    func reserveEmit(pushID: String) -> RoutingDecision

    /// Makes the reserved consume of `envelope` durable.
    ///
    /// - Complexity: the store's write of one id.
    func commit(_ envelope: EnvelopeID)
}
