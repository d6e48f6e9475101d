import DedupeWorkloads
import PushDedupe

/// One window type and one consumed-set type, fed a workload in one mode: the generic core every
/// measurement runs. Everything here is specialized for `W` and `C`; nothing on the per-event
/// path is an existential or a closure.
struct _ConcreteCase<W: FingerprintWindow, C: ConsumedSet> {
    var window: W
    var consumed: C
    let mode: CaseMode
    /// The shipped router's path, whose guard decides every push; the user goes back through it.
    var path: _RoutedPath
    /// What survives a relaunch, and what the strategies are rebuilt from then.
    var relaunch: _RelaunchState
    init(
        mode: CaseMode, window: WindowConfiguration, consumed: ConsumedSetConfiguration,
        persistence: Persistence = .memory
    ) throws(ConfigurationError) {
        self.mode = mode
        self.path = mode == .twoLayerGuarded ? _RoutedPath(guardsTop: true) : .inert
        self.window = try W(configuration: window)
        self.consumed = try C(configuration: consumed)
        self.relaunch = _RelaunchState(persistence: persistence, window: window, consumed: consumed)
    }

    /// Feeds `columns[range]` to the strategies, writing one ``CaseDecision`` per event.
    ///
    /// `created` has one flag per envelope slot and records which envelopes exist; it must start
    /// all `false` for a fresh run.
    ///
    /// - Complexity: one strategy call (two for an admitted payload in the two-layer modes) per
    ///   event.
    mutating func process(
        _ columns: borrowing EventColumns, _ range: Range<Int>,
        decisions: UnsafeMutablePointer<UInt8>, created: UnsafeMutablePointer<Bool>
    ) {
        if columns.hasLifecycleEvent(in: range) { return processAcrossLifecycleEvents(columns, range, decisions: decisions, created: created) }
        switch mode {
        case .windowAlone:
            guard Self.buildsWindowModes else { Self.unbuilt(mode) }
            for i in range {
                let decision: CaseDecision
                if columns.isPayload(i) {
                    decision = window.admit(columns.fingerprints[i], at: columns.times[i]) ? .navigated : .suppressedByWindow
                } else {
                    decision = .notApplicable
                }
                decisions[i] = decision.rawValue
            }
        case .consumedAlone:
            guard Self.buildsConsumedSetModes else { Self.unbuilt(mode) }
            for i in range {
                let fresh = consumed.consume(columns.envelope(i), at: columns.times[i])
                decisions[i] = (fresh ? CaseDecision.navigated : .suppressedByConsumedSet).rawValue
            }
        case .fingerprintOnly:
            guard Self.buildsWindowModes else { Self.unbuilt(mode) }
            for i in range {
                let slot = Int(columns.envelopeSlot[i])
                let decision: CaseDecision
                if columns.isPayload(i) {
                    if window.admit(columns.fingerprints[i], at: columns.times[i]) {
                        created[slot] = true
                        decision = .navigated
                    } else {
                        decision = .suppressedByWindow
                    }
                } else if columns.hasCreator(i) && !created[slot] {
                    decision = .skippedEmit
                } else {
                    decision = window.admit(columns.fingerprints[i], at: columns.times[i]) ? .navigated : .suppressedByWindow
                }
                decisions[i] = decision.rawValue
            }
        case .envelopeOnly:
            // Every payload creates its envelope, so no emit is ever skipped here.
            guard Self.buildsConsumedSetModes else { Self.unbuilt(mode) }
            for i in range {
                let fresh = consumed.consume(columns.envelope(i), at: columns.times[i])
                decisions[i] = (fresh ? CaseDecision.navigated : .suppressedByConsumedSet).rawValue
            }
        case .twoLayer:
            for i in range {
                decisions[i] = twoLayerDecision(columns, i, created: created).rawValue
            }
        case .twoLayerGuarded:
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

    /// Whether `W` and `C` can run the modes that use only the window: only with
    /// ``_NoOpConsumedSet`` in the unused layer, which `_AnyCase.init` enforces. The test is a
    /// constant in each specialization, so a real pair's specialization carries the two-layer
    /// loops only (`process` was 44% smaller across the 93 specializations, the clean release
    /// build 8% faster).
    static var buildsWindowModes: Bool { C.self is _NoOpConsumedSet.Type }

    /// Whether `W` and `C` can run the modes that use only the consumed set: see
    /// `buildsWindowModes`.
    static var buildsConsumedSetModes: Bool { W.self is _NoOpWindow.Type }

    /// Whether a case of `mode` may be built from `W` and `C`.
    static func builds(_ mode: CaseMode) -> Bool {
        (mode.usesConsumedSet || buildsWindowModes) && (mode.usesWindow || buildsConsumedSetModes)
    }

    @inline(never)
    static func unbuilt(_ mode: CaseMode) -> Never {
        preconditionFailure("\(mode.rawValue) is not built for \(W.strategyID)+\(C.strategyID)")
    }

    @inline(__always)
    mutating func twoLayerDecision(
        _ columns: borrowing EventColumns, _ i: Int, created: UnsafeMutablePointer<Bool>
    ) -> CaseDecision {
        let slot = Int(columns.envelopeSlot[i])
        if columns.isPayload(i) {
            guard window.admit(columns.fingerprints[i], at: columns.times[i]) else { return .suppressedByWindow }
            created[slot] = true
        } else if columns.hasCreator(i) && !created[slot] {
            return .skippedEmit
        }
        return consumed.consume(columns.envelopeTable[slot], at: columns.times[i]) ? .navigated : .suppressedByConsumedSet
    }

    /// Entries the strategies the mode uses retain.
    var retainedEntries: Int {
        (mode.usesWindow ? window.count : 0) + (mode.usesConsumedSet ? consumed.count : 0)
    }

    /// Structural bytes of the strategies the mode uses.
    var footprint: Int {
        (mode.usesWindow ? window.footprint : 0) + (mode.usesConsumedSet ? consumed.footprint : 0)
    }
}
