import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// The state of one `BenchmarkRunner.run`: the assembled cases and the results filled in phase by
/// phase.
struct _Run {
    let plan: RunPlan
    let sizing: RunSizing
    /// What one device sees, and the parameters every case is sized with.
    let profile: DeviceProfile
    let workloads: [LoadedWorkload]
    let started: UInt64
    let progress: (RunProgress) -> Void
    /// The erased cases, one per result, in result order.
    var cases: [_AnyCase] = []
    /// Index into `workloads` of each case.
    var caseWorkload: [Int] = []
    var results: [CaseResult] = []
    var sweeps: [SweepPoint] = []
    var harnessOverhead: Double?
    var harnessAllocationsPerEvent: Double?
    private var completed = 0
    var total = 0
    /// The phase now running, for the progress line.
    var phase = RunPhase.correctness
    var phaseSteps: [RunPhase: Int] = [:]
    /// Seconds each phase is expected to take before it has measured steps of its own.
    var plannedSeconds: [RunPhase: Double] = [:]
    /// Events each phase runs, once known (``RunProgress/phaseEvents``).
    var phaseEvents: [RunPhase: Int] = [:]
    var correctnessSweepPoints = 0
    /// The columns files written for the child processes, removed when the run ends.
    var childFiles: _ChildFiles?
    /// Ids of the cases in the suite only as a reference (the published one or the timing one),
    /// which no filter selected: timing skips those that are not the timing reference.
    var referenceOnly: Set<String> = []
    /// Per workload, where the published window stops (``ReferenceWindowLimit``).
    var referenceLimits: [Int: ReferenceWindowLimit] = [:]

    init(
        plan: RunPlan, sizing: RunSizing, profile: DeviceProfile, workloads: [LoadedWorkload], started: UInt64,
        progress: @escaping (RunProgress) -> Void
    ) {
        self.plan = plan
        self.sizing = sizing
        self.profile = profile
        self.workloads = workloads
        self.started = started
        self.progress = progress
    }

    /// Builds the suite: on every workload, each layer alone and the single-layer modes for every
    /// selected strategy; two-layer pipelines for the full window × set cross product on the first
    /// `crossProductWorkloads` workloads (stress first), elsewhere every window with the reference
    /// set and every set with the companion window. Every mode present gets its reference case
    /// (the published strategies, `minted`, `memory`), even if filtered out, so every ratio and
    /// every matched error has its denominator. In the modes that pick what to adopt
    /// (``twinModes``), each case also gets its twins: every other identity and persistence that
    /// can change a decision on the workload (``LoadedWorkload/identities``, ``persistences``),
    /// scored but not timed, since their per-event work is their base case's.
    mutating func assembleCases(_ selection: RunSelection) {
        let catalogue = plan.strategies
        let crossProduct = Set(
            workloads.indices.sorted { rank(workloads[$0]) < rank(workloads[$1]) }.prefix(sizing.crossProductWorkloads))
        let referenceSet = selection.referenceConsumedSet
        let companion = selection.companionWindow
        for (index, workload) in workloads.enumerated() {
            var specs: [(WindowEntry?, ConsumedSetEntry?, CaseMode)] = []
            for mode in selection.modes {
                switch mode {
                case .windowAlone, .fingerprintOnly:
                    specs += selection.windows.map { ($0, nil, mode) }
                case .consumedAlone, .envelopeOnly:
                    specs += selection.consumedSets.map { (nil, $0, mode) }
                case .twoLayer, .twoLayerGuarded:
                    var pairs: [(WindowEntry, ConsumedSetEntry)] = []
                    if crossProduct.contains(index) {
                        for window in selection.windows { pairs += selection.consumedSets.map { (window, $0) } }
                    } else {
                        if let referenceSet { pairs += selection.windows.map { ($0, referenceSet) } }
                        if let companion {
                            pairs += selection.consumedSets.filter { $0.id != referenceSet?.id }.map { (companion, $0) }
                        }
                    }
                    specs += pairs.map { ($0.0, $0.1, mode) }
                }
            }
            // The published reference, and the timing reference when `--reference` names another.
            var addedReferences = Set<Int>()
            for mode in selection.modes {
                for ids in [Self.referenceIDs(mode)] + [plan.timingReference.ids(mode)].compactMap({ $0 }) {
                    let window = ids.window.flatMap(catalogue.window)
                    let consumed = ids.consumed.flatMap(catalogue.consumedSet)
                    guard (ids.window == nil) == (window == nil), (ids.consumed == nil) == (consumed == nil) else { continue }
                    if !specs.contains(where: { $0.0?.id == window?.id && $0.1?.id == consumed?.id && $0.2 == mode }) {
                        addedReferences.insert(specs.count)
                        specs.append((window, consumed, mode))
                    }
                }
            }
            for (position, (window, consumed, mode)) in specs.enumerated() {
                let parameters = parameters(window: window, consumed: consumed, windowMilliseconds: plan.windowMilliseconds)
                let twins = mode.usesConsumedSet && Self.twinModes.contains(mode)
                let identities = twins ? workload.identities : [.minted]
                let persistences = twins && (consumed?.isSnapshottable ?? false) ? workload.persistences : [.memory]
                for identity in identities {
                    for persistence in persistences {
                        addCase(window: window, consumed: consumed, mode: mode, parameters: parameters,
                                identity: identity, persistence: persistence, workload: index)
                        if addedReferences.contains(position) { referenceOnly.insert(results[results.count - 1].id.text) }
                    }
                }
            }
            for mode in selection.modes where mode == .twoLayer || mode == .twoLayerGuarded {
                for pipeline in catalogue.pipelines {
                    for identity in workload.identities {
                        addCase(pipeline: pipeline, mode: mode, identity: identity, workload: index)
                    }
                }
            }
        }
        phaseSteps[.correctness] = cases.count + routerLatencySteps
        if plan.measureTiming {
            phaseSteps[.timing] = results.indices.filter(isTimed).count * plan.repetitions + forks - 1
            plannedSeconds[.timing] = Double(Set(caseWorkload).count) * sizing.timingSecondsPerWorkload
        }
        if plan.measureMemory { phaseSteps[.memory] = 1 }
        if plan.runSweeps, case .catalogue = plan.source {
            let points = sweepPointCount(selection)
            phaseSteps[.sweeps] = points.speed + points.correctness
            correctnessSweepPoints = points.correctness
            plannedSeconds[.sweeps] = Double(points.speed) * sizing.timingSecondsPerSweepPoint
        }
        total = phaseSteps.values.reduce(0, +)
    }

    /// Keeps the cases named in `wanted` (case ids, or choices without their workload), those
    /// whose id has a match of one of `patterns` (regular expressions, anywhere in the id), and
    /// every mode's reference case.
    ///
    /// - Throws: `MeasurementError.invalidPlan` naming a text no case has, or a pattern that matches
    ///   no case id or does not compile, with a few case ids of the suite for comparison.
    mutating func keepCases(_ wanted: [String]?, patterns: [String]?) throws(MeasurementError) {
        let names = results.map { ($0.id.text, $0.choice.text) }
        let examples = names.prefix(3).map(\.0).joined(separator: ", ")
        for text in wanted ?? [] where !names.contains(where: { $0.0 == text || $0.1 == text }) {
            throw .invalidPlan("no case is '\(text)'; case ids read workload/mode/strategies/identity/persistence, e.g. \(examples)")
        }
        var regexes: [Regex<AnyRegexOutput>] = []
        for pattern in patterns ?? [] {
            guard let regex = try? Regex(pattern) else { throw .invalidPlan("/\(pattern)/ is not a regular expression") }
            guard names.contains(where: { $0.0.firstMatch(of: regex) != nil }) else {
                throw .invalidPlan("/\(pattern)/ matches no case id; case ids read workload/mode/strategies/identity/persistence, e.g. \(examples)")
            }
            regexes.append(regex)
        }
        let wantedSet = Set(wanted ?? [])
        let kept = results.indices.filter { index in
            wantedSet.contains(names[index].0) || wantedSet.contains(names[index].1)
                || regexes.contains { names[index].0.firstMatch(of: $0) != nil } || isReference(index) || isTimingReference(index)
        }
        cases = kept.map { cases[$0] }
        caseWorkload = kept.map { caseWorkload[$0] }
        results = kept.map { results[$0] }
        phaseSteps[.correctness] = cases.count + routerLatencySteps
        if plan.measureTiming { phaseSteps[.timing] = results.indices.filter(isTimed).count * plan.repetitions + forks - 1 }
        total = phaseSteps.values.reduce(0, +)
    }

    /// The modes whose cases get identity and persistence twins: the pipeline an app adopts and
    /// layer 2 alone.
    static let twinModes: Set<CaseMode> = [.twoLayer, .twoLayerGuarded, .consumedAlone]

    /// Adds one case and its result record.
    private mutating func addCase(
        window: WindowEntry?, consumed: ConsumedSetEntry?, mode: CaseMode, parameters: CaseParameters,
        identity: EnvelopeIdentity, persistence: Persistence, workload index: Int
    ) {
        let anyCase = plan.strategies.makeCase(
            window: window, consumed: consumed, mode: mode, parameters: parameters, persistence: persistence)
        cases.append(anyCase)
        caseWorkload.append(index)
        var result = CaseResult(
            workload: workloads[index].id, mode: mode, window: anyCase.windowID, consumed: anyCase.consumedID,
            parameters: parameters, timing: nil, memory: nil, correctness: nil, identity: identity, persistence: persistence)
        if let window, mode.usesWindow {
            result.windowGuarantee = GuaranteeRecord(window.guarantee)
            result.windowReads = window.reads
            result.windowType = String(describing: window.type)
        }
        if let consumed, mode.usesConsumedSet {
            result.consumedGuarantee = GuaranteeRecord(consumed.guarantee)
            result.consumedReads = consumed.reads
            result.consumedType = String(describing: consumed.type)
        }
        results.append(result)
    }

    /// Adds one case of a team's whole pipeline, sized like a window and a set, and its record:
    /// named with the pipeline in the window's place, and no consumed set of its own.
    private mutating func addCase(pipeline: PipelineEntry, mode: CaseMode, identity: EnvelopeIdentity, workload index: Int) {
        var parameters = parameters(window: nil, consumed: nil, windowMilliseconds: plan.windowMilliseconds)
        parameters.windowCapacity = profile.sizing.windowCapacity
        let anyCase = plan.strategies.makeCase(pipeline: pipeline, mode: mode, parameters: parameters)
        cases.append(anyCase)
        caseWorkload.append(index)
        var result = CaseResult(
            workload: workloads[index].id, mode: mode, window: pipeline.id, consumed: nil, parameters: parameters,
            timing: nil, memory: nil, correctness: nil, identity: identity, persistence: .memory)
        result.windowGuarantee = GuaranteeRecord(pipeline.guarantee)
        result.windowReads = pipeline.reads
        result.windowType = pipeline.typeName
        results.append(result)
    }

    /// How many points `runSweeps` will report, for the progress line.
    private func sweepPointCount(_ selection: RunSelection) -> (speed: Int, correctness: Int) {
        var correctness = 0
        let swept = selection.consumedSets.filter(\.isSwept)
        if !workloads.isEmpty {
            let deviceWorkloads = max(1, workloads.filter { $0.tag == .device }.count)
            correctness += selection.windows.count * sizing.windowLengthsMilliseconds.count * deviceWorkloads
                + swept.count * sizing.consumedCapacities.count
                + swept.filter(\.isProbabilistic).count * sizing.bloomBitsPerEntry.count
        }
        let speed = plan.measureTiming
            ? Self.liveSetWindows(selection).count * sizing.liveSetSizes.count * SweepDimension.liveSetRepeatShares.count
                + swept.count * sizing.consumedSetSizes.count
            : 0
        return (speed, correctness)
    }

    /// Stress workloads first: they are the ones the cross product is most telling on.
    private func rank(_ workload: LoadedWorkload) -> Int {
        switch workload.category {
        case .stress?: return 0
        case .publishedSituation?: return 1
        case .navigationStack?: return 2
        case .realWorld?: return 3
        case nil: return 0
        }
    }

    /// The parameters a case of `window` and `consumed` is built with: the device profile's
    /// sizing, unless the catalogue entry pins its own (test catalogues do).
    func parameters(window: WindowEntry?, consumed: ConsumedSetEntry?, windowMilliseconds: Double) -> CaseParameters {
        let sized = profile.sizing
        let pinned = consumed?.defaultConfiguration
        var parameters = CaseParameters(
            windowMilliseconds: windowMilliseconds,
            windowCapacity: window.map { $0.defaultCapacity ?? sized.windowCapacity } ?? 0,
            consumedCapacity: pinned?.capacity ?? sized.consumedCapacity,
            falsePositiveRate: pinned?.falsePositiveRate ?? sized.falsePositiveRate,
            retentionMilliseconds: pinned.map { Double($0.retention.wholeNanoseconds) / 1e6 } ?? sized.retentionMilliseconds)
        parameters.expectedRatePerSecond = pinned?.expectedRatePerSecond ?? sized.expectedRatePerSecond
        return parameters
    }

    /// Reports the next step on the progress line; `events` is what the step runs, when counted.
    mutating func report(_ label: String, events: Int = 0) {
        progress(RunProgress(
            caseLabel: label, completed: completed, total: max(total, completed + 1),
            elapsedSeconds: Double(MonotonicClock.now() &- started) / 1e9, phase: phase, phaseSteps: phaseSteps,
            plannedSeconds: plannedSeconds, stepEvents: events, phaseEvents: phaseEvents))
        completed += 1
    }

    func label(_ index: Int) -> String { results[index].id.text }

    /// Runs `body`, turning a strategy's `ConfigurationError` into a `MeasurementError` naming the case.
    static func rethrowing<T>(_ label: String, _ body: () throws -> T) throws(MeasurementError) -> T {
        do {
            return try body()
        } catch let error as MeasurementError {
            throw error
        } catch {
            throw .invalidPlan("\(label): \(error)")
        }
    }
}
