import DedupeMeasurement
import DedupeWorkloads
import PushDedupe

extension _Run {
    /// Times every case in `forks` forks. On each workload, one calibration run per case on a
    /// short prefix picks how many events fit the time budget (the same prefix in every fork).
    /// Fork 0 runs here; the others each run in a fresh child process (``HarnessChild``) when
    /// this executable can host one, otherwise here too. Every fork runs `repetitions + 1`
    /// rounds per workload (the first a discarded warm-up), each running every case once in an
    /// order shuffled from the seed, the workload and the fork, so drift hits all cases alike.
    /// Samples are stored fork by fork; ratios compare each case with its reference row in the
    /// same fork and round. Latency batches come from fork 0. A window alone is timed on the
    /// payloads of the same prefix only: emits are not its input, and counting them would report
    /// ns per event, not per admit.
    mutating func measureTiming() throws(MeasurementError) {
        let batchSize = sizing.latencyBatchSize
        var timedEvents = [Int](repeating: 0, count: workloads.count)
        var groups: [(workload: Int, items: [TimingFork.Item])] = []
        var timedCases: [Int] = []
        // By case index, as the samples: every timed case has both.
        var eventCounts = [Int](repeating: 0, count: cases.count)
        for (workloadIndex, workload) in workloads.enumerated() {
            // A twin runs its base case's loop on other envelope ids or with a restore at each
            // relaunch; its extra cost is the snapshot's, measured in the correctness run.
            let members = cases.indices.filter { caseWorkload[$0] == workloadIndex && isTimed($0) }
            guard !members.isEmpty else { continue }
            // Every case times the same prefix; where the published window stops, they stop there.
            let limit = members.compactMap(eventLimit).min()
            let available = min(workload.columns.count, limit ?? .max)
            guard available > 0 else { continue }

            let calibrationCount = min(available, sizing.timedEventsRange.lowerBound)
            let calibration = workload.columns.prefix(calibrationCount)
            var perEvent = 0.0
            for index in members {
                var scratch: [Double] = []
                let nanoseconds = try Self.rethrowing(label(index)) {
                    try cases[index]._timed(calibration, 0, batchSize, &scratch)
                }
                perEvent += nanoseconds / Double(calibrationCount)
            }
            let rounds = Double(forks * (plan.repetitions + 1))
            // In `Double` and clamped before converting: a tiny cost per event must not trap.
            let affordable = Int(min(sizing.timingSecondsPerWorkload * 1e9 / (rounds * max(perEvent, 1e-3)), 1e15))
            let timedCount = min(available, min(sizing.timedEventsRange.upperBound, max(sizing.timedEventsRange.lowerBound, affordable)))
            let columns = timedCount == calibrationCount ? calibration : workload.columns.prefix(timedCount)
            let payloadColumns = columns.payloads()
            timedEvents[workloadIndex] = timedCount
            timedCases += members
            let items = members.map { index in
                TimingFork.Item(
                    key: index, anyCase: cases[index],
                    events: results[index].mode == .windowAlone ? payloadColumns : columns)
            }
            for item in items { eventCounts[item.key] = item.events.count }
            groups.append((workloadIndex, items))
            if harnessOverhead == nil {
                harnessOverhead = Self.noOpOverhead(columns, repetitions: plan.repetitions, batchSize: batchSize)
            }
        }
        guard !timedCases.isEmpty else { return }
        // A fork runs every timed case `repetitions + 1` times; fork 0 reports each repetition.
        let roundEvents = timedCases.reduce(0) { $0 + eventCounts[$1] }
        let forkEvents = roundEvents * (plan.repetitions + 1)
        phaseEvents[.timing] = roundEvents * plan.repetitions + forkEvents * (forks - 1)

        var samples = [[Double]](repeating: [], count: cases.count)
        var batches: [Int: [Double]] = [:]
        var request = TimingForkRequest(
            workloads: [], timedEvents: timedEvents, cases: timedCases.map(childSpec),
            repetitions: plan.repetitions, batchSize: batchSize, seed: plan.seed, fork: 0)
        if forks > 1 && forksInChildProcesses {
            // A trace goes to the children as a columns file of its timed prefix only.
            for index in workloads.indices {
                request.workloads.append(
                    timedEvents[index] > 0 ? try childWorkload(index, events: timedEvents[index]) : ChildWorkload(spec: workloads[index].spec))
            }
        }
        for fork in 0..<forks {
            let measured: [Int: [Double]]
            if fork > 0 && forksInChildProcesses {
                report("timing fork \(fork + 1) of \(forks) (child process)", events: forkEvents)
                var forkRequest = request
                forkRequest.fork = fork
                let response: TimingForkResponse
                do {
                    response = try HarnessChild.call(
                        .timing, forkRequest, stage: "timing fork \(fork + 1)", timeoutSeconds: TimingFork.childTimeoutSeconds)
                } catch let error as MeasurementError {
                    throw error
                } catch {
                    throw .stageFailed("\(error)")
                }
                measured = Dictionary(response.outcomes.map { ($0.key, $0.samples) }) { first, _ in first }
            } else {
                if fork > 0 { report("timing fork \(fork + 1) of \(forks) (in-process)", events: forkEvents) }
                let outcome = try Self.rethrowing("timing fork \(fork + 1)") {
                    try TimingFork.measure(
                        groups, repetitions: plan.repetitions, batchSize: batchSize, seed: plan.seed, fork: fork,
                        keepBatches: fork == 0,
                        report: { key, round, events in if fork == 0 { report(label(key) + " rep \(round)", events: events) } })
                }
                measured = outcome.mapValues(\.samples)
                if fork == 0 { batches = outcome.mapValues(\.batches) }
            }
            for index in timedCases {
                guard let forkSamples = measured[index], forkSamples.count == plan.repetitions else {
                    throw .stageFailed("timing fork \(fork + 1): no samples for \(label(index))")
                }
                samples[index] += forkSamples.map(SampleStatistics.stored)
            }
        }

        for workloadIndex in workloads.indices {
            let members = timedCases.filter { caseWorkload[$0] == workloadIndex }
            for index in members {
                let reference = timingReferenceIndex(of: index).flatMap { members.contains($0) ? $0 : nil }
                let ratios = reference.map { zip(samples[index], samples[$0]).map { $0 / $1 } } ?? []
                var timing = TimingResult(
                    samples: samples[index], batches: batches[index] ?? [], ratios: ratios,
                    timedEvents: eventCounts[index],
                    reference: reference.map { results[$0].id.text })
                timing.forks = forks
                results[index].timing = timing
            }
        }
    }

    /// Whether case `index` is timed: every base case (twins run its loop), except one in the
    /// suite only as the published reference when the ratios are against another reference.
    func isTimed(_ index: Int) -> Bool {
        results[index].choice.isBase && (!referenceOnly.contains(results[index].id.text) || isTimingReference(index))
    }

    /// Whether case `index` is its mode's timing reference (``RunPlan/timingReference``).
    func isTimingReference(_ index: Int) -> Bool { results[index].isTimingReference(plan.timingReference) }

    /// The timing reference of case `index`'s mode on its workload, if the suite has one.
    func timingReferenceIndex(of index: Int) -> Int? {
        cases.indices.first {
            caseWorkload[$0] == caseWorkload[index] && results[$0].mode == results[index].mode && isTimingReference($0)
        }
    }

    /// Timing forks per case: the plan's, else the sizing's. Where no child can be started they
    /// all run in this process, so the samples keep the same shape.
    var forks: Int { max(1, plan.forks ?? sizing.forks) }

    /// Whether forks after the first run in child processes.
    var forksInChildProcesses: Bool {
        plan.timingIsolation == .childProcessWhenAvailable && HarnessChild.canHostChildren
    }

    /// Median ns/event of the two-layer loop with no-op strategies: what the harness itself
    /// costs per event (reading the event, writing the decision, the batch clock reads).
    static func noOpOverhead(_ columns: EventColumns, repetitions: Int, batchSize: Int) -> Double {
        let parameters = CaseParameters(
            windowMilliseconds: 0, windowCapacity: 0, consumedCapacity: 0, falsePositiveRate: 0.5, retentionMilliseconds: 1)
        let noOp = _AnyCase(_NoOpWindow.self, _NoOpConsumedSet.self, mode: .twoLayer, parameters: parameters)
        var samples: [Double] = []
        for round in 0...repetitions {
            var scratch: [Double] = []
            guard let nanoseconds = try? noOp._timed(columns, 0, batchSize, &scratch) else { return 0 }
            if round > 0 { samples.append(nanoseconds / Double(max(1, columns.count))) }
        }
        return SampleStatistics.median(samples) ?? 0
    }
}
