/// The deduplicator as a router's ledger. Its store records a consume inside `receivePayload` and
/// `receiveEmit` (as its saving policy says), so the reservation is already durable and
/// ``commit(_:)`` has nothing left to do: under either ``ConsumeTiming``, a kill during the
/// route's work then loses the tap, as ``ConsumeTiming/commitBeforeWork`` does.
extension MainActorDeduplicator: RouteConsumeLedger {
    public func reservePayload(fingerprint: String, pushID: String) -> RoutingDecision {
        receivePayload(route: fingerprint, pushID: pushID)
    }

    public func reserveEmit(pushID: String) -> RoutingDecision {
        receiveEmit(pushID: pushID)
    }

    public func commit(_ envelope: EnvelopeID) {}
}
