import DedupeMeasurement
import DedupeHarness

/// The CSV reports: one tidy file per kind of result. Columns are documented in
/// `Guides/Reports.md`; units are part of the column names.
package enum CSVReport {
    /// The identifying columns every per-case file starts with: the case's one name, then its
    /// parts, then the value of each parameter, filled only where one of the case's strategies
    /// reads it.
    static let caseColumns = [
        "case", "workload", "mode", "window", "consumed", "identity", "persistence", "window_ms", "window_capacity",
        "consumed_capacity", "false_positive_rate_target", "retention_ms", "expected_ids_per_second",
    ]

    static func caseFields(_ result: CaseResult) -> [String] {
        let reads = Set((result.window != nil ? result.windowReads ?? [] : []) + (result.consumed != nil ? result.consumedReads ?? [] : []))
        let p = result.parameters
        func value(_ text: String, if parameters: StrategyParameter...) -> String {
            parameters.contains(where: reads.contains) ? text : ""
        }
        return [
            result.id.text, result.workload, result.mode.rawValue, result.window ?? "", result.consumed ?? "",
            result.identity?.rawValue ?? "", result.persistence?.rawValue ?? "",
            value(NumberText.exact(p.windowMilliseconds), if: .windowLength),
            value(String(p.windowCapacity), if: .windowCapacity, .windowReservation),
            value(String(p.consumedCapacity), if: .capacity, .reservation),
            value(NumberText.exact(p.falsePositiveRate), if: .falsePositiveRate),
            value(NumberText.exact(p.retentionMilliseconds), if: .retention),
            value(NumberText.exact(p.expectedRatePerSecond), if: .expectedRate),
        ]
    }

    /// `throughput.csv`: one row per timed case.
    ///
    /// - Complexity: O(cases × repetitions).
    package static func throughput(_ results: RunResults) -> CSVTable {
        var table = CSVTable(header: caseColumns + [
            "repetitions", "timed_events", "median_ns_per_event", "min_ns_per_event", "iqr_ns_per_event", "events_per_second",
            "latency_p50_ns", "latency_p90_ns", "latency_p99_ns", "latency_p999_ns",
            "ratio_to_reference_median", "ratio_to_reference_min", "ratio_to_reference_max", "reference",
        ])
        for result in results.cases {
            guard let timing = result.timing else { continue }
            let ratios = timing.ratiosToReference.sorted()
            table.rows.append(caseFields(result) + [
                String(timing.samplesNanosecondsPerEvent.count),
                NumberText.exact(timing.timedEvents),
                NumberText.exact(timing.medianNanosecondsPerEvent),
                NumberText.exact(timing.minNanosecondsPerEvent),
                NumberText.exact(timing.spreadNanosecondsPerEvent),
                NumberText.exact(timing.eventsPerSecond),
                NumberText.exact(timing.latencyP50Nanoseconds),
                NumberText.exact(timing.latencyP90Nanoseconds),
                NumberText.exact(timing.latencyP99Nanoseconds),
                NumberText.exact(timing.latencyP999Nanoseconds),
                NumberText.exact(SampleStatistics.median(ratios)),
                NumberText.exact(ratios.first),
                NumberText.exact(ratios.last),
                timing.reference ?? "",
            ])
        }
        return table
    }

    /// `memory.csv`: one row per case with memory figures.
    package static func memory(_ results: RunResults) -> CSVTable {
        var table = CSVTable(header: caseColumns + [
            "memory_source", "live_bytes", "peak_bytes", "bytes_per_entry", "allocations_per_event",
            "footprint_bytes", "retained_entries", "live_bytes_growth_last_tenth", "footprint_growth_last_tenth",
        ])
        for result in results.cases {
            guard let memory = result.memory else { continue }
            table.rows.append(caseFields(result) + [
                memory.source, NumberText.exact(memory.liveBytes), NumberText.exact(memory.peakBytes),
                NumberText.exact(memory.bytesPerEntry), NumberText.exact(memory.allocationsPerEvent),
                String(memory.footprintBytes), String(memory.retainedEntries),
                NumberText.exact(memory.liveBytesGrowthInLastTenth), NumberText.exact(memory.footprintGrowthInLastTenth),
            ])
        }
        return table
    }

    /// `correctness.csv`: one row per scored case: the case columns, the counts, the errors
    /// matched event by event against the reference, rates with intervals, suppression by layer,
    /// evictions, filter figures, the snapshot costs, and the errors by cause.
    package static func correctness(_ results: RunResults) -> CSVTable {
        var table = CSVTable(header: caseColumns + [
            "events", "new_events", "dup_events", "false_drops", "missed_duplicates", "skipped_emits", "duplicate_screens",
            "lost_navigations", "newly_dropped", "newly_missed", "recovered_navigations", "newly_blocked_duplicates",
            "newly_suppressed_unlabelled", "newly_navigated_unlabelled", "mcnemar_p", "wanted_mcnemar_p", "reference",
            "false_drop_rate", "false_drop_rate_lower95", "false_drop_rate_upper95",
            "missed_duplicate_rate", "missed_duplicate_rate_lower95", "missed_duplicate_rate_upper95",
            "suppressed_by_window", "suppressed_by_consumed_set", "suppressed_by_guard",
            "window_evictions", "consumed_evictions", "filter_fp_rate_theoretical", "filter_fp_rate_measured",
            "snapshot_bytes_max", "snapshot_bytes_mean", "snapshot_ns_mean", "restore_ns_mean",
            "missed_by_cause", "dropped_by_cause",
        ])
        for result in results.cases {
            guard let c = result.correctness else { continue }
            let counts: [String] = [
                String(c.events), String(c.newEvents), String(c.dupEvents), String(c.falseDrops), String(c.missedDuplicates),
                String(c.skippedEmits), String(c.duplicateScreens), String(c.lostNavigations),
            ]
            let matched: [String] = [
                NumberText.exact(c.matched?.newlyDropped), NumberText.exact(c.matched?.newlyMissed),
                NumberText.exact(c.matched?.recoveredNavigations), NumberText.exact(c.matched?.newlyBlockedDuplicates),
                NumberText.exact(c.matched?.newlySuppressedUnlabelled), NumberText.exact(c.matched?.newlyNavigatedUnlabelled),
                NumberText.exact(c.matched?.mcnemarP), NumberText.exact(c.matched?.wantedMcnemarP), c.matched?.reference ?? "",
            ]
            let rates: [String] = [c.falseDropRate, c.missedDuplicateRate].flatMap { rate in
                [rate.value, rate.lower95, rate.upper95].map(NumberText.exact)
            }
            let layers: [String] = [
                String(c.suppressedByWindow), String(c.suppressedByConsumedSet), String(c.suppressedByGuard),
                String(c.windowEvictions), String(c.consumedEvictions),
                NumberText.exact(c.theoreticalFalsePositiveRate), NumberText.exact(c.measuredFalsePositiveRate),
            ]
            let snapshot: [String] = [
                NumberText.exact(result.snapshot?.maximumBytes), NumberText.exact(result.snapshot?.meanBytes),
                NumberText.exact(result.snapshot?.meanSnapshotNanoseconds), NumberText.exact(result.snapshot?.meanRestoreNanoseconds),
            ]
            table.rows.append(caseFields(result) + counts + matched + rates + layers + snapshot
                + [causesText(c.missedByCause), causesText(c.droppedByCause)])
        }
        return table
    }

    /// `caught with push-id identity=198; only a loading guard=200`: causes by name, in order.
    static func causesText(_ causes: [String: Int]?) -> String {
        (causes ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// `sweeps.csv`: one row per sweep point; `x` is in the unit of its dimension (`x_unit`).
    package static func sweeps(_ results: RunResults) -> CSVTable {
        var table = CSVTable(header: [
            "dimension", "x", "x_unit", "strategy", "workload", "ns_per_event", "bytes", "bytes_source", "false_drops",
            "missed_duplicates", "measured_fp_rate", "events",
        ])
        for point in results.sweeps {
            table.rows.append([
                point.dimension.rawValue, NumberText.exact(point.x), point.dimension.unit, point.strategy,
                point.workload ?? "", NumberText.exact(point.nanosecondsPerEvent), NumberText.exact(point.bytes),
                point.bytesSource ?? "", NumberText.exact(point.falseDrops), NumberText.exact(point.missedDuplicates),
                NumberText.exact(point.measuredFalsePositiveRate), String(point.events),
            ])
        }
        return table
    }
}
