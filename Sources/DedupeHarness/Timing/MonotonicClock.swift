#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `CLOCK_MONOTONIC` directly: cheaper than `ContinuousClock.now` (no `Duration`
/// arithmetic), which matters because the latency batches read it every few dozen events.
enum MonotonicClock {
    /// Nanoseconds since an arbitrary origin.
    @inline(__always)
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The smallest non-zero step between two consecutive reads, and the median cost of one
    /// read, over `samples` back-to-back reads.
    static func calibrate(samples: Int = 200_000) -> (resolution: Double, readCost: Double) {
        var deltas = [UInt64](repeating: 0, count: samples)
        var previous = now()
        for i in 0..<samples {
            let current = now()
            deltas[i] = current &- previous
            previous = current
        }
        let resolution = deltas.filter { $0 > 0 }.min().map { Double($0) } ?? 1
        deltas.sort()
        return (resolution, Double(deltas[samples / 2]))
    }
}
