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

    public init(name: String, summary: String, routes: [String], sources: [String], events: [WorkloadEvent]) {
        self.name = name
        self.summary = summary
        self.routes = routes
        self.sources = sources
        self.events = events
    }
}
