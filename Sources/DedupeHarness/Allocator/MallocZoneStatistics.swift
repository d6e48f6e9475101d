#if canImport(Darwin)
import Darwin

/// The Darwin malloc zones' statistics: the fallback on Apple platforms.
///
/// Allocated bytes are `size_in_use` summed over every zone, process-wide. Darwin keeps no
/// running allocation count (`nil`) and no per-thread byte totals (the memory pass then takes the
/// peak from its slice readings).
package struct MallocZoneStatistics: AllocatorStatistics {
    package init() {}

    package var source: String { "darwin-malloc-zone" }

    /// - Complexity: O(zones + regions): each zone walks its regions.
    package mutating func allocatedBytes() -> Int? {
        var statistics = malloc_statistics_t()
        malloc_zone_statistics(nil, &statistics)
        return Int(statistics.size_in_use)
    }

    package mutating func allocationCount() -> Int? { nil }
}
#endif
