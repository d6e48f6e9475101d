import PushDedupe

extension Workload {
    /// The first way the workload breaks the event model, or `nil` when it is consistent.
    ///
    /// Checked: times never decrease; every route, source and push index is in range; every
    /// event's fingerprint is its route's; no two payloads create the same envelope; every emit
    /// follows the payload that created its envelope (before or after relaunches between them)
    /// and carries that payload's route and push; a relaunch or background event is
    /// ``WorkloadEvent/relaunch(at:)`` or ``WorkloadEvent/background(at:)`` exactly; no push id is
    /// listed twice in ``pushes``; recorded suppressions ascend, name payloads or emits, and a
    /// window suppression names a payload (the window sees nothing else). Generated workloads and
    /// imported traces satisfy all of these; the harness may call this on any other input.
    ///
    /// - Complexity: O(*n*) expected.
    package func firstInconsistency() -> String? {
        let fingerprints = routes.map { RouteFingerprint(route: $0) }
        var creator: [EnvelopeID: (route: UInt32, push: UInt32)] = [:]
        var previous: Timestamp?
        for (index, event) in events.enumerated() {
            if let previous, event.time < previous { return "event \(index): time decreases" }
            previous = event.time
            switch event.kind {
            case .relaunch where event != .relaunch(at: event.time), .background where event != .background(at: event.time):
                return "event \(index): a \(event.kind) carries an envelope, route, source, push or truth"
            case .relaunch, .background:
                continue
            case .payload, .emit:
                break
            }
            guard Int(event.route) < routes.count else { return "event \(index): route index out of range" }
            guard Int(event.source) < sources.count else { return "event \(index): source index out of range" }
            guard event.push == WorkloadEvent.noPush || Int(event.push) < pushes.count else {
                return "event \(index): push index out of range"
            }
            guard event.fingerprint == fingerprints[Int(event.route)] else {
                return "event \(index): fingerprint is not its route's"
            }
            switch event.kind {
            case .payload:
                guard creator.updateValue((event.route, event.push), forKey: event.envelope) == nil else {
                    return "event \(index): a second payload creates envelope \(event.envelope)"
                }
            case .emit:
                guard let created = creator[event.envelope] else {
                    return "event \(index): emit of envelope \(event.envelope) before any payload created it"
                }
                guard created.route == event.route else { return "event \(index): emit's route differs from its payload's" }
                guard created.push == event.push else { return "event \(index): emit's push differs from its payload's" }
            case .relaunch, .background:
                break
            }
        }
        return firstSuppressionOrPushInconsistency()
    }

    private func firstSuppressionOrPushInconsistency() -> String? {
        if Set(pushes).count != pushes.count { return "a push id is listed twice in pushes" }
        var previous = -1
        for suppression in recordedSuppressions {
            guard suppression.event > previous, suppression.event < events.count else {
                return "recorded suppression of event \(suppression.event): out of range or out of order"
            }
            previous = suppression.event
            switch (events[suppression.event].kind, suppression.layer) {
            case (.payload, _), (.emit, .consumedSet): continue
            case (.emit, .window): return "event \(suppression.event): a window suppression of an emit"
            case (.relaunch, _), (.background, _): return "event \(suppression.event): a suppression of a lifecycle event"
            }
        }
        return nil
    }
}
