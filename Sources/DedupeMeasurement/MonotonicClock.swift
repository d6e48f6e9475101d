#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `CLOCK_MONOTONIC` directly: cheaper than `ContinuousClock.now` (no `Duration`
/// arithmetic), which matters because the latency batches read it every few dozen events.
/// Public and inlinable only so the timing loops of other modules inline the read: an
/// `@inlinable package` member is still called across modules in this toolchain.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary origin.
    @inlinable @inline(__always)
    public static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// The smallest non-zero step between two consecutive reads, and the median cost of one
    /// read, over `samples` back-to-back reads.
    package static func calibrate(samples: Int = 200_000) -> (resolution: Double, readCost: Double) {
        var deltas = [UInt64](repeating: 0, count: max(1, samples))
        var previous = now()
        for i in 0..<samples {
            let current = now()
            deltas[i] = current &- previous
            previous = current
        }
        let (smallestStep, median) = smallestStepAndMedian(deltas)
        return (smallestStep.map { Double($0) } ?? 1, Double(median))
    }

    /// The smallest non-zero delta and the median (the element at `count / 2` in sorted order),
    /// by counting: nearly every delta is a few tens of nanoseconds, and sorting 200,000 of them
    /// took a third of a second in every debug process the tests start.
    package static func smallestStepAndMedian(_ deltas: [UInt64]) -> (smallestStep: UInt64?, median: UInt64) {
        precondition(!deltas.isEmpty, "calibration takes at least one sample")
        let bound = 4_096
        var counts = [Int](repeating: 0, count: bound)
        var above: [UInt64] = []
        var smallestStep: UInt64?
        var index = 0
        while index < deltas.count {
            let delta = deltas[index]
            if delta > 0 && delta < smallestStep ?? .max { smallestStep = delta }
            if delta < UInt64(bound) { counts[Int(delta)] += 1 } else { above.append(delta) }
            index += 1
        }
        let rank = deltas.count / 2
        var seen = 0
        var value = 0
        while value < bound {
            seen += counts[value]
            if seen > rank { return (smallestStep, UInt64(value)) }
            value += 1
        }
        above.sort()
        return (smallestStep, above[rank - seen])
    }
}
