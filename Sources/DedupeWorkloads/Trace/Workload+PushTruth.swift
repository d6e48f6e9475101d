import PushDedupe

extension Workload {
    /// What ``labellingPushRedeliveries()`` labelled (``Workload/inferredTruth``).
    package struct PushTruth: Sendable, Equatable {
        /// Deliveries labelled `new`: the first of each push.
        package var firstDeliveries: Int
        /// Deliveries labelled `dup`: every later delivery of a push, payload or emit.
        package var redeliveries: Int
        /// Deliveries left unlabelled: in-app navigations and emits of their envelopes.
        package var withoutPushID: Int

        /// One line for the summary and the report.
        package var description: String {
            "truth inferred from push ids: the first delivery of each of the \(firstDeliveries) pushes is new and its "
                + "\(redeliveries) later deliveries are duplicates; \(withoutPushID) event(s) without a push id stay unlabelled"
        }
    }

    /// Labels an unlabelled trace from its push ids, and returns what it labelled; `nil`, and
    /// nothing changed, when any event is labelled already or no event carries a push id.
    ///
    /// One push is one thing the user wants to see once: a second delivery of it (a second token,
    /// launch options after `didReceive`, the notification an SDK hands back at every launch, a
    /// pending route replayed) is a duplicate whatever the app did with the first. So the first
    /// delivery of each push is `new` and every later one `dup`. An in-app navigation carries no
    /// push id, and nothing says whether the user wanted it twice: it stays unlabelled, and is
    /// judged only against the published code.
    ///
    /// - Complexity: O(events).
    @discardableResult
    package mutating func labellingPushRedeliveries() -> PushTruth? {
        guard hasPushIDs, !events.contains(where: { !$0.kind.isLifecycle && $0.truth != .unknown }) else { return nil }
        var delivered = [Bool](repeating: false, count: pushes.count)
        var truth = PushTruth(firstDeliveries: 0, redeliveries: 0, withoutPushID: 0)
        for index in events.indices where !events.columns.isLifecycle(index) {
            let push = events.pushes[index]
            guard push != WorkloadEvent.noPush, Int(push) < delivered.count else {
                truth.withoutPushID += 1
                continue
            }
            if delivered[Int(push)] {
                events.setTruth(.dup, at: index)
                truth.redeliveries += 1
            } else {
                delivered[Int(push)] = true
                events.setTruth(.new, at: index)
                truth.firstDeliveries += 1
            }
        }
        inferredTruth = truth
        return truth
    }
}
