/// The deduplicator as a router's ledger: a reserve decides as `receivePayload` and
/// `receiveEmit` do and keeps a `.navigated` envelope out of the store until ``commit(_:)``, so a
/// kill during the route's work forgets the reservation and the tap navigates again at the next
/// launch (``ConsumeTiming/reserveThenCommit``).
extension MainActorDeduplicator: RouteConsumeLedger {
    public func reservePayload(fingerprint: String, pushID: String) -> RoutingDecision {
        reservePayload(route: fingerprint, pushID: pushID)
    }

    public func reserveEmit(pushID: String) -> RoutingDecision {
        reserveEmit(pushID: pushID, source: "")
    }
}
