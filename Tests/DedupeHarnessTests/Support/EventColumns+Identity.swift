@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe

extension EventColumns {
    /// The columns of hand-built `events` with the envelope ids layer 2 sees under `identity`: each
    /// event's own (`minted`), or `pushes[push]` for every event whose push is in range
    /// (``reidentified(byPush:ids:)``). A workload's own columns need no such build: they come
    /// with it (``Workload/events``).
    init(_ events: some Collection<WorkloadEvent>, pushes: [EnvelopeID] = [], identity: EnvelopeIdentity = .minted) {
        let stored = WorkloadEvents(events)
        self = identity == .pushID ? stored.columns.reidentified(byPush: stored.pushes, ids: pushes) : stored.columns
    }
}
