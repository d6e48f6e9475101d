#if canImport(Darwin)
import Darwin

/// The Darwin malloc zones' statistics: the fallback on Apple platforms.
///
/// Allocated bytes are `size_in_use` summed over every zone, process-wide. Darwin keeps no
/// running allocation count or per-thread peak, so those are `nil`.
public struct MallocZoneStatistics: AllocatorStatistics {
    public init() {}

    public var source: String { "darwin-malloc-zone" }

    /// - Complexity: O(zones + regions): each zone walks its regions.
    public mutating func allocatedBytes() -> Int? {
        var statistics = malloc_statistics_t()
        malloc_zone_statistics(nil, &statistics)
        return Int(statistics.size_in_use)
    }

    public mutating func allocationCount() -> Int? { nil }

    public mutating func resetPeak() -> Bool { false }

    public mutating func peakBytesSinceReset() -> Int? { nil }
}
#endif
