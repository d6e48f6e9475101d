import DedupeWorkloads
import PushDedupe

/// A team's whole pipeline `P`, fed a workload in a two-layer mode: the same loops, lifecycle and
/// router guards as a window and a set (``_CaseLoop``), with `P`'s two entry points in place of
/// the layers. It keeps nothing across a relaunch (the published code's `memory`).
struct _PipelineCase<P: DedupePipeline>: _CaseLoop {
    var pipeline: P
    let mode: CaseMode
    var path: _RoutedPath
    var relaunch: _RelaunchState

    init(
        mode: CaseMode, window: WindowConfiguration, consumed: ConsumedSetConfiguration, persistence: Persistence
    ) throws(ConfigurationError) {
        precondition(mode == .twoLayer || mode == .twoLayerGuarded, "\(P.strategyID) is a whole pipeline: two-layer modes only")
        self.mode = mode
        self.path = mode == .twoLayerGuarded ? _RoutedPath(guardsTop: true) : .inert
        self.pipeline = try P(window: window, consumed: consumed)
        self.relaunch = _RelaunchState(persistence: persistence, window: window, consumed: consumed)
    }

    mutating func process(
        _ columns: borrowing EventColumns, _ range: Range<Int>,
        decisions: UnsafeMutablePointer<UInt8>, created: UnsafeMutablePointer<Bool>
    ) {
        if columns.hasLifecycleEvent(in: range) { return processAcrossLifecycleEvents(columns, range, decisions: decisions, created: created) }
        processTwoLayer(columns, range, decisions: decisions, created: created)
    }

    /// A payload creates its envelope unless the pipeline's window step dropped it, as in the
    /// published code; an emit of an envelope never created is skipped before the pipeline.
    @inline(__always)
    mutating func twoLayerDecision(
        _ columns: borrowing EventColumns, _ i: Int, created: UnsafeMutablePointer<Bool>
    ) -> CaseDecision {
        let slot = Int(columns.envelopeSlot[i])
        let decision: RoutingDecision
        if columns.isPayload(i) {
            decision = pipeline.receivePayload(columns.fingerprints[i], envelope: columns.envelopeTable[slot], at: columns.times[i])
            if decision != .suppressedByWindow { created[slot] = true }
        } else if columns.hasCreator(i) && !created[slot] {
            return .skippedEmit
        } else {
            decision = pipeline.receiveEmit(envelope: columns.envelopeTable[slot], at: columns.times[i])
        }
        switch decision {
        case .navigated: return .navigated
        case .suppressedByWindow: return .suppressedByWindow
        case .suppressedByConsumedSet: return .suppressedByConsumedSet
        }
    }

    /// The process was killed: the pipeline starts again from nothing, and the path with it.
    mutating func relaunchApp() {
        path.relaunch()
        relaunch.relaunches += 1
        do {
            pipeline = try P(window: relaunch.window, consumed: relaunch.consumed)
        } catch {
            relaunch.failure = "relaunch: \(error)"
        }
    }

    mutating func enterBackground() {}

    // A pipeline's state is its own: the memory figures come from the allocator alone.
    var retainedEntries: Int { 0 }
    var footprint: Int { 0 }
    var consumedFootprint: Int { 0 }
    var windowEvictions: Int { 0 }
    var consumedEvictions: Int { 0 }
    func falsePositiveRates(probes: Int, seed: UInt64) -> (theoretical: Double, measured: Double?)? { nil }
}
