import PushDedupe

/// The exact window a careful engineer writes from the standard library, timed beside the
/// library's windows in the live-set sweep as the baseline `hash-deque` must beat: a
/// `Dictionary` from fingerprint to admission time, plus the admissions in order in an array
/// used as a ring, so expiry pops the front and removes those keys.
///
/// Careful means: integer keys and times, storage reserved for `capacity`, eager expiry through
/// the ring (so the dictionary holds only live entries), and no refresh on a suppressed call.
/// A repeat costs one lookup; a new fingerprint a lookup and an insertion, and later one
/// removal. (A single find-or-insert through the inout defaulted subscript,
/// `dictionary[key, default: now]`, measured no faster: 0.97-1.3x this one's time, release.)
///
/// Not a library strategy and not in the catalogue: a sweep row only. `Dictionary` hashes with
/// Swift's per-process seeded `Hasher`, so its layout, and a little of its speed, changes from
/// process to process. That is acceptable for a timing baseline only because no decision depends
/// on hashing order: the window is exact, so its answers equal `hash-deque`'s on any input
/// (tested on seeded random input), and every correctness figure stays deterministic.
///
/// - Guarantees: exact; unbounded, `evictions` is always 0.
/// - Complexity: O(1) amortized per admit (expected, under the hasher).
struct StandardLibraryWindow: FingerprintWindow {
    static let strategyID = "stdlib-dictionary-window"
    static let guarantee: Guarantee = .exact

    /// One admission, in the ring.
    struct Entry {
        var fingerprint: UInt64
        var seenAt: Int64
    }

    /// The live fingerprints and when each was admitted.
    private var seenAt: [UInt64: Int64]
    /// Admissions oldest first from `head`: a power of two of slots, doubled when full.
    private var ring: [Entry]
    private var head = 0
    private var live = 0
    private var latest = Int64.min
    private let windowNanoseconds: Int64
    let window: Duration

    init(configuration: WindowConfiguration) throws(ConfigurationError) {
        guard configuration.window >= .zero else {
            throw ConfigurationError(strategy: Self.strategyID, parameter: "window", reason: "must not be negative")
        }
        guard configuration.capacity >= 0 else {
            throw ConfigurationError(strategy: Self.strategyID, parameter: "capacity", reason: "must not be negative")
        }
        window = configuration.window
        windowNanoseconds = configuration.window.wholeNanoseconds
        seenAt = Dictionary(minimumCapacity: configuration.capacity)
        var slots = 1
        while slots < configuration.capacity { slots *= 2 }
        ring = Array(repeating: Entry(fingerprint: 0, seenAt: 0), count: slots)
    }

    @inline(__always)
    mutating func admit(_ fingerprint: RouteFingerprint, at time: Timestamp) -> Bool {
        latest = max(latest, time.nanoseconds)
        let (difference, overflow) = latest.subtractingReportingOverflow(windowNanoseconds)
        let cutoff = overflow ? Int64.min : difference
        let mask = ring.count - 1
        while live > 0 && ring[head].seenAt < cutoff {
            seenAt.removeValue(forKey: ring[head].fingerprint)
            head = (head + 1) & mask
            live -= 1
        }
        let key = fingerprint.rawValue
        if let seen = seenAt[key], seen >= cutoff { return false }
        seenAt[key] = latest
        if live == ring.count { grow() }
        ring[(head + live) & (ring.count - 1)] = Entry(fingerprint: key, seenAt: latest)
        live += 1
        return true
    }

    /// Doubles the ring, laying the admissions out from slot 0.
    @inline(never)
    private mutating func grow() {
        let mask = ring.count - 1
        var doubled = Array(repeating: Entry(fingerprint: 0, seenAt: 0), count: ring.count * 2)
        for offset in 0..<live { doubled[offset] = ring[(head + offset) & mask] }
        ring = doubled
        head = 0
    }

    var count: Int { live }

    /// The dictionary's key and value bytes at its capacity and the ring's; excludes the
    /// dictionary's unused buckets, its occupancy bitmap and both headers.
    var footprint: Int {
        seenAt.capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<Int64>.stride) + ring.count * MemoryLayout<Entry>.stride
    }

    var evictions: Int { 0 }
}
