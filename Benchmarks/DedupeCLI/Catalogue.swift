import DedupeHarness
import DedupeWorkloads
import PushDedupe

/// The ids and one-line descriptions `list` prints and `--filter` accepts.
///
/// Strategies come from the harness's catalogue and scenarios from the workload catalogue, so
/// a new strategy or scenario appears here without a change; modes and metrics are described
/// here because they are the report's vocabulary.
enum Catalogue {
    struct Entry: Sendable {
        var id: String
        var summary: String
        /// The strategy type's id, where an entry registers one (`recent-ids` for `recent-ids-10`).
        var typeID: String?
    }

    static var windows: [Entry] {
        StrategyCatalogue.linked.windows.map {
            Entry(id: $0.id, summary: describe($0.guarantee, $0.reads, $0.summary), typeID: $0.type.strategyID)
        }
    }

    static var consumedSets: [Entry] {
        StrategyCatalogue.linked.consumedSets.map {
            Entry(id: $0.id, summary: describe($0.guarantee, $0.reads, $0.summary), typeID: $0.strategyID)
        }
    }

    static var pipelines: [Entry] {
        StrategyCatalogue.linked.pipelines.map { Entry(id: $0.id, summary: describe($0.guarantee, $0.reads, $0.summary)) }
    }

    /// `[exact-forgets-oldest; reads capacity] Exact, fixed capacity, …`: the declared guarantee
    /// and parameters first, so `list` shows what each strategy promises.
    static func describe(_ guarantee: Guarantee, _ reads: [StrategyParameter], _ summary: String) -> String {
        let parameters = reads.isEmpty ? "reads nothing" : "reads " + reads.map(\.rawValue).joined(separator: ", ")
        return "[\(guarantee); \(parameters)] \(summary)"
    }

    static let modes = CaseMode.allCases.map { Entry(id: $0.rawValue, summary: summary(of: $0)) }

    static func summary(of mode: CaseMode) -> String {
        switch mode {
        case .fingerprintOnly: return "Every event checked by the window under its route's fingerprint."
        case .envelopeOnly: return "Every payload gets a fresh envelope; every event checked by the consumed set."
        case .twoLayer: return "The published design: payloads through the window, then the consumed set; emits through the set."
        case .twoLayerGuarded: return "two-layer plus the navigation guard (path.last != route)."
        case .windowAlone: return "Layer 1 measured on its own (ns per admit)."
        case .consumedAlone: return "Layer 2 measured on its own (ns per consume)."
        }
    }

    static let metrics = [
        Entry(id: "ns_per_event", summary: "Median time per event over the repetitions (also min and IQR)."),
        Entry(id: "events_per_second", summary: "Throughput at the median time."),
        Entry(id: "latency_p50/p90/p99/p999_ns", summary: "Per-event latency percentiles from batched timing."),
        Entry(id: "ratio_to_reference", summary: "Time over the mode's reference (the published code) in the same repetition."),
        Entry(id: "live_bytes / peak_bytes", summary: "Allocator-measured bytes after and at most during the run."),
        Entry(id: "bytes_per_entry", summary: "Live bytes over the entries retained."),
        Entry(id: "allocations_per_event", summary: "Heap allocations per event in steady state."),
        Entry(id: "footprint_bytes", summary: "The strategy's own structural size estimate."),
        Entry(id: "false_drops", summary: "Wanted navigations (truth new) that were suppressed."),
        Entry(id: "missed_duplicates", summary: "Duplicates (truth dup) that reached the screen."),
        Entry(id: "skipped_emits", summary: "Emits of envelopes whose payload was suppressed, so never created."),
        Entry(id: "duplicate_screens", summary: "Navigations that pushed the route already on top."),
        Entry(id: "lost_navigations", summary: "Wanted navigations the user never got."),
        Entry(id: "evictions", summary: "Entries each layer dropped for capacity."),
        Entry(id: "filter_fp_rate", summary: "Bloom filters: theoretical and measured false-positive rate."),
    ]

    static var workloads: [Entry] {
        ScenarioCatalogue.all.map { Entry(id: $0.id, summary: "[\($0.category.rawValue), \($0.tag.rawValue)] \($0.summary)") }
    }
}
