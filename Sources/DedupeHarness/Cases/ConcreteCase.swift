import DedupeWorkloads
import PushDedupe

/// One window type and one consumed-set type, fed a workload in one mode: the generic core every
/// measurement runs. Everything here is specialized for `W` and `C`; nothing on the per-event
/// path is an existential or a closure.
struct _ConcreteCase<W: FingerprintWindow, C: ConsumedSet>: _CaseLoop {
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
        case .twoLayer, .twoLayerGuarded:
            processTwoLayer(columns, range, decisions: decisions, created: created)
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

    var consumedFootprint: Int { mode.usesConsumedSet ? consumed.footprint : 0 }
    var windowEvictions: Int { mode.usesWindow ? window.evictions : 0 }
    var consumedEvictions: Int { mode.usesConsumedSet ? consumed.evictions : 0 }

    /// For a filter: its theoretical rate, and the share of `probes` never-consumed ids it answers
    /// as seen at the final fill.
    func falsePositiveRates(probes: Int, seed: UInt64) -> (theoretical: Double, measured: Double?)? {
        guard mode.usesConsumedSet, let filter = consumed as? any ProbabilisticConsumedSet else { return nil }
        guard probes > 0 else { return (filter.theoreticalFalsePositiveRate, nil) }
        // Random 128-bit ids: the chance one equals a workload id is about n·2⁻¹²⁸.
        var random = SplitMix64(seed: seed ^ 0x0bad_c0de_f00d_1234)
        var positives = 0
        for _ in 0..<probes where consumed.contains(EnvelopeID(high: random.next(), low: random.next())) {
            positives += 1
        }
        return (filter.theoreticalFalsePositiveRate, Double(positives) / Double(probes))
    }
}
