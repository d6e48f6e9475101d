import PushDedupe

extension _Run {
    /// Times every case, workload by workload. On each workload: one calibration run per case on
    /// a short prefix picks how many events fit the time budget; then `repetitions + 1` rounds
    /// (the first a discarded warm-up), each running every case once in a freshly shuffled,
    /// seeded order, so drift hits all cases alike. Ratios compare each case with its reference
    /// row in the same round. A window alone is timed on the payloads of the same prefix only:
    /// emits are not its input, and counting them would report ns per event, not per admit.
    mutating func measureTiming() throws(HarnessError) {
        let batchSize = sizing.latencyBatchSize
        for (workloadIndex, workload) in workloads.enumerated() {
            // A `snapshot` twin runs the same loop as its `memory` row between relaunches; its
            // cost is the snapshot's, measured in the correctness run.
            let members = cases.indices.filter { caseWorkload[$0] == workloadIndex && cases[$0].persistence == .memory }
            guard !members.isEmpty else { continue }
            let available = workload.columns.count
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
            let affordable = Int(sizing.timingSecondsPerWorkload * 1e9 / (Double(plan.repetitions + 1) * max(perEvent, 1e-3)))
            let timedCount = min(available, min(sizing.timedEventsRange.upperBound, max(sizing.timedEventsRange.lowerBound, affordable)))
            let columns = timedCount == calibrationCount ? calibration : workload.columns.prefix(timedCount)
            let payloadColumns = columns.payloads()
            func input(_ index: Int) -> EventColumns {
                results[index].mode == CaseMode.windowAlone.rawValue ? payloadColumns : columns
            }

            var samples = [[Double]](repeating: [], count: members.count)
            var batches = [[Double]](repeating: [], count: members.count)
            var random = SplitMix64(seed: plan.seed ^ DeterministicHashing.mix64(UInt64(workloadIndex) &+ 1))
            for round in 0...plan.repetitions {
                var order = Array(members.indices)
                order.shuffle(using: &random)
                for position in order {
                    let index = members[position]
                    if round > 0 { report(label(index) + " rep \(round)") }
                    var roundBatches = round == 0 ? [] : batches[position]
                    batches[position] = []
                    let events = input(index)
                    let nanoseconds = try Self.rethrowing(label(index)) {
                        try cases[index]._timed(events, 0, batchSize, &roundBatches)
                    }
                    if round > 0 {
                        samples[position].append(nanoseconds / Double(max(1, events.count)))
                        batches[position] = roundBatches
                    }
                }
            }
            if harnessOverhead == nil {
                harnessOverhead = Self.noOpOverhead(columns, repetitions: plan.repetitions, batchSize: batchSize)
            }
            for (position, index) in members.enumerated() {
                let reference = referencePosition(for: index, among: members)
                let ratios = reference.map { referencePosition in
                    zip(samples[position], samples[referencePosition]).map { $0 / $1 }
                } ?? []
                results[index].timing = TimingResult(
                    samples: samples[position], batches: batches[position], ratios: ratios, timedEvents: input(index).count,
                    reference: reference.map { cases[members[$0]].referenceLabel })
            }
        }
    }

    /// The position in `members` of the reference row of case `index`: `seed-literal` for
    /// `window-alone`, `set` for `consumed-alone`, the `seed-literal` + `set` two-layer pipeline
    /// for every pipeline mode.
    private func referencePosition(for index: Int, among members: [Int]) -> Int? {
        let mode = CaseMode(rawValue: results[index].mode)
        let window: String? = mode == .consumedAlone ? nil : StrategyCatalogue.referenceWindowID
        let consumed: String? = mode == .windowAlone ? nil : StrategyCatalogue.referenceConsumedSetID
        let referenceMode: CaseMode = mode == .windowAlone || mode == .consumedAlone ? mode! : .twoLayer
        return members.firstIndex {
            results[$0].mode == referenceMode.rawValue && results[$0].window == window && results[$0].consumed == consumed
        }
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
        return SampleStatistics.median(samples)
    }
}
