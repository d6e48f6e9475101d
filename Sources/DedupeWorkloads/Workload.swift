import PushDedupe

/// A named, fully generated sequence of events with ground truth.
package struct Workload: Sendable {
    /// The scenario or trace name, e.g. `marketing-burst`.
    package var name: String
    /// One line on what it models.
    package var summary: String
    /// Route strings (`item:42`) indexed by ``WorkloadEvent/route``.
    package var routes: [String]
    /// Source labels (`tap`, `pending_route`) indexed by ``WorkloadEvent/source``.
    package var sources: [String]
    /// The events in processing order, held as columns and read as rows.
    package var events: WorkloadEvents
    /// The id each push carries, as the envelope id an app keyed on it would use
    /// (`EnvelopeID(token:)` of the push id), indexed by ``WorkloadEvent/push``, in order of first
    /// delivery. Empty for a workload without push ids.
    package var pushes: [EnvelopeID]
    /// Set when the truth was inferred from the push ids (``labellingPushRedeliveries()``).
    package var inferredTruth: PushTruth?
    /// The token a trace used for each envelope or push id that is not a canonical UUID (`e1`,
    /// `h3f…`), so output can name it as the trace did (``token(of:)``). Empty for generated
    /// workloads. A lookup table only: nothing iterates it, so its order never reaches output.
    package var envelopeTokens: [EnvelopeID: String]
    /// What the recording app's deduplicator suppressed, from a trace's `suppressed` column:
    /// ascending by event, at most one per event, only on payloads and emits. Information only:
    /// replay ignores it. Empty for generated workloads and traces without the column.
    package var recordedSuppressions: [RecordedSuppression]

    /// A workload of events built by hand: their columns are built here.
    package init(
        name: String, summary: String, routes: [String], sources: [String], events: [WorkloadEvent],
        pushes: [EnvelopeID] = [], envelopeTokens: [EnvelopeID: String] = [:],
        recordedSuppressions: [RecordedSuppression] = []
    ) {
        self.init(name: name, summary: summary, routes: routes, sources: sources, events: WorkloadEvents(events),
                  pushes: pushes, envelopeTokens: envelopeTokens, recordedSuppressions: recordedSuppressions)
    }

    /// A workload of events already in columns, as the generators and the trace reader make them.
    package init(
        name: String, summary: String, routes: [String], sources: [String], events: WorkloadEvents,
        pushes: [EnvelopeID] = [], envelopeTokens: [EnvelopeID: String] = [:],
        recordedSuppressions: [RecordedSuppression] = []
    ) {
        self.name = name
        self.summary = summary
        self.routes = routes
        self.sources = sources
        self.events = events
        self.pushes = pushes
        self.envelopeTokens = envelopeTokens
        self.recordedSuppressions = recordedSuppressions
    }

    /// Whether any delivery says which push it is, so the `push-id` identity can differ from
    /// `minted`.
    package var hasPushIDs: Bool { !pushes.isEmpty }

    /// The text a trace names `id` by: the token it was imported from when that was not a
    /// canonical UUID, otherwise the lower-case canonical UUID (`id.description`).
    ///
    /// - Complexity: O(1) expected.
    package func token(of id: EnvelopeID) -> String {
        envelopeTokens[id] ?? id.description
    }
}

/// One event the recording app's deduplicator suppressed, as a trace's `suppressed` column says.
package struct RecordedSuppression: Hashable, Sendable {
    /// The layer that suppressed it, with its trace spelling.
    package enum Layer: String, Hashable, Sendable, CaseIterable {
        /// Layer 1, the fingerprint window (payloads only).
        case window
        /// Layer 2, the consumed set.
        case consumedSet = "consumed-set"
    }

    /// Index into ``Workload/events``.
    package var event: Int
    package var layer: Layer

    package init(event: Int, layer: Layer) {
        self.event = event
        self.layer = layer
    }
}
