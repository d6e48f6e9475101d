import PushDedupe

/// A named, fully generated sequence of events with ground truth.
public struct Workload: Sendable {
    /// The scenario or trace name, e.g. `marketing-burst`.
    public var name: String
    /// One line on what it models.
    public var summary: String
    /// Route strings (`item:42`) indexed by ``WorkloadEvent/route``.
    public var routes: [String]
    /// Source labels (`tap`, `pending_route`) indexed by ``WorkloadEvent/source``.
    public var sources: [String]
    /// The events in processing order.
    public var events: [WorkloadEvent]
    /// The id each push carries, as the envelope id an app keyed on it would use
    /// (`EnvelopeID(token:)` of the push id), indexed by ``WorkloadEvent/push``. Empty for a
    /// workload without push ids.
    public var pushes: [EnvelopeID]

    public init(
        name: String, summary: String, routes: [String], sources: [String], events: [WorkloadEvent],
        pushes: [EnvelopeID] = []
    ) {
        self.name = name
        self.summary = summary
        self.routes = routes
        self.sources = sources
        self.events = events
        self.pushes = pushes
    }

    /// Whether any delivery says which push it is, so the `push-id` identity can differ from
    /// `minted`.
    public var hasPushIDs: Bool { !pushes.isEmpty }
}
