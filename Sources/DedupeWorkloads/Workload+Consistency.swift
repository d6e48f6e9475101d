import PushDedupe

extension Workload {
    /// The first way the workload breaks the event model, or `nil` when it is consistent.
    ///
    /// Checked: times never decrease; every route and source index is in range; every event's
    /// fingerprint is its route's; no two payloads create the same envelope; every emit follows
    /// the payload that created its envelope (before or after relaunches between them) and
    /// carries that payload's route; a relaunch is ``WorkloadEvent/relaunch(at:)`` exactly. Generated workloads
    /// and imported traces satisfy all of these; the harness may call this on any other input.
    ///
    /// - Complexity: O(*n*) expected.
    public func firstInconsistency() -> String? {
        let fingerprints = routes.map { RouteFingerprint(route: $0) }
        var creatingRoute: [EnvelopeID: UInt32] = [:]
        var previous: Timestamp?
        for (index, event) in events.enumerated() {
            if let previous, event.time < previous { return "event \(index): time decreases" }
            previous = event.time
            if event.kind == .relaunch {
                guard event == .relaunch(at: event.time) else {
                    return "event \(index): a relaunch carries an envelope, route, source or truth"
                }
                continue
            }
            guard Int(event.route) < routes.count else { return "event \(index): route index out of range" }
            guard Int(event.source) < sources.count else { return "event \(index): source index out of range" }
            guard event.fingerprint == fingerprints[Int(event.route)] else {
                return "event \(index): fingerprint is not its route's"
            }
            switch event.kind {
            case .payload:
                guard creatingRoute.updateValue(event.route, forKey: event.envelope) == nil else {
                    return "event \(index): a second payload creates envelope \(event.envelope)"
                }
            case .emit:
                guard let route = creatingRoute[event.envelope] else {
                    return "event \(index): emit of envelope \(event.envelope) before any payload created it"
                }
                guard route == event.route else { return "event \(index): emit's route differs from its payload's" }
            case .relaunch:
                break
            }
        }
        return nil
    }
}
