import PushDedupe

/// A registered whole pipeline: its id, a one-line summary, its type's name, the parameters it
/// reads and its declared guarantee. Its cases run in the two-layer modes and are named with its
/// id in the window's place (`two-layer/team-router(window=500ms)/push-id/memory`).
package struct PipelineEntry: Sendable {
    package var id: String
    package var summary: String
    package var typeName: String
    /// The configuration values the pipeline reads, declared at registration.
    package var reads: [StrategyParameter]
    /// What the pipeline promises by construction (its type's declaration).
    package var guarantee: Guarantee
    /// Erased once, here, where `P` is concrete.
    let _make: @Sendable (CaseMode, CaseParameters) -> _AnyCase

    package init<P: DedupePipeline>(_ type: P.Type, reads: [StrategyParameter], summary: String) {
        id = P.strategyID
        self.summary = summary
        typeName = String(describing: type)
        self.reads = reads
        guarantee = P.guarantee
        _make = { mode, parameters in _AnyCase(pipeline: P.self, mode: mode, parameters: parameters) }
    }
}

extension StrategyCatalogue {
    /// The pipeline registered as `id`, or `nil`.
    package func pipeline(_ id: String) -> PipelineEntry? { pipelines.first { $0.id == id } }

    /// The case running `pipeline` in `mode` (a two-layer mode) with `parameters`.
    func makeCase(pipeline: PipelineEntry, mode: CaseMode, parameters: CaseParameters) -> _AnyCase {
        pipeline._make(mode, parameters)
    }
}
