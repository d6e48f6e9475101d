import DedupeWorkloads
import PushDedupe

/// The generic core of a case, whatever runs it: a window and a set (``_ConcreteCase``), or a
/// team's whole pipeline (``_PipelineCase``). The runs (correctness, timing, memory) and the
/// lifecycle stepping are written once against it, and each conformer's loop is specialized.
protocol _CaseLoop: SendableMetatype {
    init(
        mode: CaseMode, window: WindowConfiguration, consumed: ConsumedSetConfiguration, persistence: Persistence
    ) throws(ConfigurationError)

    var mode: CaseMode { get }
    /// The shipped router's path, whose guard decides every push in `two-layer-guarded`.
    var path: _RoutedPath { get set }
    /// What survives a relaunch.
    var relaunch: _RelaunchState { get set }

    /// Feeds `columns[range]` to the strategies, writing one ``CaseDecision`` per event.
    mutating func process(
        _ columns: borrowing EventColumns, _ range: Range<Int>,
        decisions: UnsafeMutablePointer<UInt8>, created: UnsafeMutablePointer<Bool>)

    /// One event of a two-layer mode, before the router's guards.
    mutating func twoLayerDecision(
        _ columns: borrowing EventColumns, _ i: Int, created: UnsafeMutablePointer<Bool>) -> CaseDecision

    /// The process was killed and started again (see `_ConcreteCase.relaunchApp`).
    mutating func relaunchApp()
    /// The app entered the background.
    mutating func enterBackground()

    /// Entries the strategies retain, and their structural bytes.
    var retainedEntries: Int { get }
    var footprint: Int { get }
    /// The consumed set's structural bytes (0 when the mode uses none).
    var consumedFootprint: Int { get }
    /// Evictions each layer counted, and, for a filter, its false-positive rates after a run.
    var windowEvictions: Int { get }
    var consumedEvictions: Int { get }
    func falsePositiveRates(probes: Int, seed: UInt64) -> (theoretical: Double, measured: Double?)?
}

extension _CaseLoop {
    /// The two-layer modes' loops: `two-layer`, and `two-layer-guarded` with the router's loading
    /// guard before the layers and its top-of-stack guard after them.
    @inline(__always)
    mutating func processTwoLayer(
        _ columns: borrowing EventColumns, _ range: Range<Int>,
        decisions: UnsafeMutablePointer<UInt8>, created: UnsafeMutablePointer<Bool>
    ) {
        guard mode == .twoLayerGuarded else {
            for i in range {
                decisions[i] = twoLayerDecision(columns, i, created: created).rawValue
            }
            return
        }
        let actions = columns.actions
        for i in range {
            path.replayActions(before: i, of: actions)
            // The loading guard acts at the tap: a completion whose tap it ignored never comes.
            if columns.isActionCompletion(i) && !path.actionRan(completing: i, of: actions) {
                decisions[i] = CaseDecision.suppressedByLoadingGuard.rawValue
                continue
            }
            var decision = twoLayerDecision(columns, i, created: created)
            if decision == .navigated && !path.pushUnlessOnTop(columns.routes[i], at: columns.times[i]) {
                decision = .suppressedByGuard
            }
            decisions[i] = decision.rawValue
        }
    }
}
