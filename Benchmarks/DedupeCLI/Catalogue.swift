import DedupeWorkloads

/// The ids and one-line descriptions `list` prints.
///
/// Strategy and mode descriptions are a local copy until the harness publishes its own
/// catalogue; this is the one place to switch over.
enum Catalogue {
    struct Entry: Sendable {
        var id: String
        var summary: String
    }

    static let windows = [
        Entry(id: "seed-literal", summary: "The published article's code: a dictionary of last-seen times, pruned by a scan."),
        Entry(id: "array-scan", summary: "Unsorted array of (fingerprint, time), linear scan; fastest for a handful of live routes."),
        Entry(id: "ring-buffer", summary: "Fixed-size ring in arrival order; expired entries drop off the tail."),
        Entry(id: "hash-deque", summary: "Open-addressed table indexed by fingerprint plus a deque for expiry."),
    ]

    static let consumedSets = [
        Entry(id: "set", summary: "The published article's code: an unbounded Set of envelope ids."),
        Entry(id: "bounded-lru", summary: "Exact set bounded by capacity, evicting the least recently consumed id."),
        Entry(id: "fifo-set", summary: "Exact set bounded by capacity, evicting the oldest consumed id."),
        Entry(id: "bloom", summary: "Bloom filter sized for capacity and a target false-positive rate; may drop wanted navigations."),
    ]

    static let modes = [
        Entry(id: "fingerprint-only", summary: "Every event checked by the window under its route's fingerprint."),
        Entry(id: "envelope-only", summary: "Every payload gets a fresh envelope; every event checked by the consumed set."),
        Entry(id: "two-layer", summary: "The published design: window on payloads, consumed set on every route."),
        Entry(id: "two-layer-guarded", summary: "two-layer plus the navigation guard (path.last != route)."),
        Entry(id: "window-alone", summary: "Layer 1 measured on its own (speed and memory)."),
        Entry(id: "consumed-alone", summary: "Layer 2 measured on its own (speed and memory)."),
    ]

    static let metrics = [
        Entry(id: "ns_per_event", summary: "Median time per event over the repetitions (also min and IQR)."),
        Entry(id: "events_per_second", summary: "Throughput at the median time."),
        Entry(id: "latency_p50/p90/p99/p999_ns", summary: "Per-event latency percentiles from batched timing."),
        Entry(id: "ratio_to_reference", summary: "Time over the seed-literal + set pipeline's in the same repetition."),
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
        ScenarioCatalogue.all.map { Entry(id: $0.id, summary: "[\($0.category.rawValue)] \($0.summary)") }
    }
}
