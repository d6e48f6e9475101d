import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

/// One case's decision for every event of its workload, handed to ``RunPlan/decisionSink`` so a
/// user can audit any single navigation.
package struct CaseDecisions: Sendable {
    /// The case, by its one identity.
    package var id: CaseID
    package var workload: Workload
    /// One ``CaseDecision`` raw value per event of `workload`, in order; fewer when the case ran
    /// on a prefix (``ReferenceWindowLimit``, ``SnapshotResult/eventsRun``).
    package var decisions: [UInt8]

    package init(id: CaseID, workload: Workload, decisions: [UInt8]) {
        self.id = id
        self.workload = workload
        self.decisions = decisions
    }

    /// The decision on event `index`; `notApplicable` past the events the case ran on (the
    /// published window stops early on a workload that would make it quadratic).
    package func decision(at index: Int) -> CaseDecision {
        index < decisions.count ? CaseDecision(rawValue: decisions[index]) ?? .notApplicable : .notApplicable
    }
}

/// Where a run hands each scored case's decisions (the decisions file of the reports).
package protocol DecisionSink: AnyObject, Sendable {
    func write(_ decisions: CaseDecisions) throws
}

extension _Run {
    /// The reference strategies of `mode`: `published-literal` and/or `set`, for the layers it uses.
    static func referenceIDs(_ mode: CaseMode) -> (window: String?, consumed: String?) {
        (mode.usesWindow ? StrategyCatalogue.referenceWindowID : nil,
         mode.usesConsumedSet ? StrategyCatalogue.referenceConsumedSetID : nil)
    }

    /// Whether case `index` is its mode's reference (``CaseResult/isReference``).
    func isReference(_ index: Int) -> Bool { results[index].isReference }

    /// The reference case of case `index`'s mode on its workload, if the suite has one.
    func referenceIndex(of index: Int) -> Int? {
        cases.indices.first {
            caseWorkload[$0] == caseWorkload[index] && results[$0].mode == results[index].mode && isReference($0)
        }
    }

    /// One untimed run of every case over its whole workload, scored against the truth and
    /// matched event by event with its mode's reference case on the same workload (the
    /// reference is scored first), or of ``CaseMode/matchedWith`` when that ran. Each case reads
    /// the columns of its identity.
    ///
    /// Memory stays bounded by a few decision arrays, whatever the number of cases: a workload is
    /// scored mode by mode, each mode's cases in groups of one choice and its twins (the
    /// reference's group first), and a group's decisions are dropped once its errors are
    /// attributed. Only the mode's reference decisions outlive their group.
    ///
    /// The cases' measured costs also plan the progress line's estimate of the memory pass (it
    /// runs its cases once more over the same workloads) and of the correctness sweeps.
    mutating func scoreCorrectness() throws(MeasurementError) {
        var seconds = [Double](repeating: 0, count: cases.count)
        phaseEvents[.correctness] = cases.indices.reduce(0) { $0 + (eventLimit($1) ?? workloads[caseWorkload[$1]].columns.count) }
        var byWorkload = [[Int]](repeating: [], count: workloads.count)
        for index in cases.indices { byWorkload[caseWorkload[index]].append(index) }
        for (workloadIndex, indices) in byWorkload.enumerated() where !indices.isEmpty {
            var matchedReferences: [CaseMode: (label: String, decisions: [UInt8])] = [:]
            for groups in correctnessGroups(indices) {
                guard let mode = groups.first?.first.map({ results[$0].mode }) else { continue }
                var reference = mode.matchedWith == mode ? nil : matchedReferences[mode.matchedWith]
                let isMatchedWith = CaseMode.allCases.contains { $0 != mode && $0.matchedWith == mode }
                for group in groups {
                    var decisionsByChoice: [StrategyChoice: [UInt8]] = [:]
                    for index in group {
                        let limit = eventLimit(index)
                        let all = workloads[workloadIndex].columns(results[index].identity)
                        let columns = limit.map { all.prefix($0) } ?? all
                        report(label(index), events: columns.count)
                        let start = MonotonicClock.now()
                        let run = try Self.rethrowing(label(index)) {
                            try cases[index]._correctness(columns, sizing.falsePositiveProbes, plan.seed, plan.snapshotBytesBound)
                        }
                        seconds[index] = Double(MonotonicClock.now() - start) / 1e9
                        var correctness = CorrectnessResult(decisions: run.decisions, columns: columns, run: run)
                        if isReference(index) {
                            if isMatchedWith { matchedReferences[mode] = (results[index].id.text, run.decisions) }
                            if reference == nil { reference = (results[index].id.text, run.decisions) }
                        }
                        if let reference {
                            // On the events both ran (a published window's case may stop early).
                            let shared = min(run.decisions.count, reference.decisions.count)
                            correctness.matched = MatchedErrors(
                                decisions: Array(run.decisions.prefix(shared)), referenceDecisions: Array(reference.decisions.prefix(shared)),
                                truths: Array(columns.truths.prefix(shared)), reference: reference.label)
                        }
                        results[index].correctness = correctness
                        results[index].snapshot = run.snapshot
                        decisionsByChoice[results[index].choice] = run.decisions
                        if let sink = plan.decisionSink {
                            do {
                                try sink.write(CaseDecisions(id: results[index].id, workload: workloads[workloadIndex].workload, decisions: run.decisions))
                            } catch {
                                throw .invalidPlan("cannot write the decisions: \(error)")
                            }
                        }
                    }
                    for index in group { attributeErrors(index, decisionsByChoice) }
                }
            }
        }
        if plan.measureMemory {
            // The pass runs each of its cases twice (a discarded run, then the measured one).
            plannedSeconds[.memory] = 2 * cases.indices
                .filter { [CaseMode.windowAlone, .consumedAlone, .twoLayer].contains(cases[$0].mode) && results[$0].choice.isBase }
                .reduce(0) { $0 + seconds[$1] }
        }
        if correctnessSweepPoints > 0, !seconds.isEmpty {
            plannedSeconds[.sweeps, default: 0] += Double(correctnessSweepPoints) * seconds.reduce(0, +) / Double(seconds.count)
        }
    }

    /// The cases `indices` of one workload in scoring order: one list per mode (in order of first
    /// appearance), of groups of one choice and its twins (every identity and persistence of the
    /// same strategies), the group holding the mode's reference first and the reference first in it.
    /// A mode goes after the mode it is matched with (``CaseMode/matchedWith``).
    func correctnessGroups(_ indices: [Int]) -> [[[Int]]] {
        var modes: [CaseMode] = []
        // Per mode, its groups in order of first appearance, and where each base choice's group is.
        var groups: [CaseMode: [[Int]]] = [:]
        var groupIndex: [CaseMode: [StrategyChoice: Int]] = [:]
        for index in indices {
            let mode = results[index].mode
            var base = results[index].choice
            if base.identity != nil { base.identity = .minted }
            if base.persistence != nil { base.persistence = .memory }
            if groups[mode] == nil { modes.append(mode) }
            if let group = groupIndex[mode]?[base] {
                groups[mode, default: []][group].append(index)
            } else {
                groupIndex[mode, default: [:]][base] = groups[mode, default: []].count
                groups[mode, default: []].append([index])
            }
        }
        for mode in modes where mode.matchedWith != mode {
            guard let own = modes.firstIndex(of: mode), let other = modes.firstIndex(of: mode.matchedWith), other > own else { continue }
            modes.swapAt(own, other)
        }
        return modes.map { mode in
            let ordered = groups[mode, default: []]
                .map { group in group.filter(isReference) + group.filter { !isReference($0) } }
            return ordered.filter { $0.contains(where: isReference) } + ordered.filter { !$0.contains(where: isReference) }
        }
    }

    /// Names the cause of every missed duplicate and false drop of case `index`, using the
    /// decisions of its twins on the same workload.
    private mutating func attributeErrors(_ index: Int, _ decisionsByChoice: [StrategyChoice: [UInt8]]) {
        let result = results[index]
        let choice = result.choice
        guard let decisions = decisionsByChoice[choice], results[index].correctness != nil else { return }
        let loaded = workloads[caseWorkload[index]]
        let attribution = _ErrorAttribution(
            decisions: decisions, columns: loaded.columns(result.identity), workload: loaded.workload,
            windowMilliseconds: result.parameters.windowMilliseconds, usesConsumedSet: result.mode.usesConsumedSet,
            guardsTaps: result.mode == .twoLayerGuarded, identity: result.identity, persistence: result.persistence
        ) { identity, persistence in
            var twin = choice
            twin.identity = identity
            twin.persistence = persistence
            return decisionsByChoice[twin]
        }
        results[index].correctness?.missedByCause = attribution.missed
        results[index].correctness?.droppedByCause = attribution.dropped
    }
}
