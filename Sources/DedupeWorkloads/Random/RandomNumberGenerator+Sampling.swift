import PushDedupe

/// Samplers built on the raw 64-bit output of a generator.
///
/// Workloads draw from `SplitMix64` only. The standard library's `random(in:using:)` is not used
/// because its algorithm is not promised to stay the same across Swift releases; these are, and
/// they depend on nothing but the generator's bits and ``DeterministicMath``.
extension RandomNumberGenerator {
    /// A uniform double in [0, 1): the top 53 bits of one draw, scaled.
    ///
    /// - Complexity: O(1).
    package mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniform integer in `0..<bound` by Lemire's multiply-and-reject, with no modulo bias.
    ///
    /// - Precondition: `bound > 0`.
    /// - Complexity: O(1) expected.
    package mutating func uniformInt(below bound: Int) -> Int {
        let limit = UInt64(bound)
        var product = next().multipliedFullWidth(by: limit)
        if product.low < limit {
            let threshold = (0 &- limit) % limit
            while product.low < threshold {
                product = next().multipliedFullWidth(by: limit)
            }
        }
        return Int(product.high)
    }

    /// `true` with probability `probability`.
    ///
    /// - Complexity: O(1).
    package mutating func bernoulli(_ probability: Double) -> Bool {
        unitInterval() < probability
    }

    /// A uniform double in `lower..<upper`.
    ///
    /// - Complexity: O(1).
    package mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unitInterval()
    }

    /// An exponential variate with the given mean, by inversion: `−mean · ln(1 − U)`.
    ///
    /// - Complexity: O(1).
    package mutating func exponential(mean: Double) -> Double {
        -mean * DeterministicMath.log(1 - unitInterval())
    }

    /// A geometric variate on {1, 2, …} with the given mean (≥ 1), by inversion:
    /// `1 + ⌊ln(1 − U) / ln(1 − p)⌋` with `p = 1 / mean`. Capped at `cap`.
    ///
    /// - Complexity: O(1).
    package mutating func geometric(mean: Double, cap: Int = 1 << 20) -> Int {
        guard mean > 1 else { return 1 }
        let failures = DeterministicMath.log(1 - unitInterval()) / DeterministicMath.log(1 - 1 / mean)
        // A mean past 2⁵³ makes 1 − 1/mean round to 1 and the quotient infinite: that is the cap.
        return !failures.isFinite || failures >= Double(cap - 1) ? cap : 1 + Int(failures)
    }

    /// A standard normal variate by Marsaglia's polar method, which needs only `log` and `sqrt`
    /// (both deterministic here) rather than `sin`/`cos`. The second variate of each pair is
    /// discarded to keep the generator stateless.
    ///
    /// - Complexity: O(1) expected (the rejection loop accepts with probability π/4).
    package mutating func standardNormal() -> Double {
        while true {
            let u = 2 * unitInterval() - 1
            let v = 2 * unitInterval() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                return u * (-2 * DeterministicMath.log(s) / s).squareRoot()
            }
        }
    }

    /// A log-normal variate with the given median and shape `sigma`, clamped to `range`.
    ///
    /// - Complexity: O(1) expected.
    package mutating func logNormal(median: Double, sigma: Double, clampedTo range: ClosedRange<Double>) -> Double {
        let value = median * DeterministicMath.exp(sigma * standardNormal())
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// A log-uniform variate in `lower...upper` (both positive): every decade equally likely.
    ///
    /// - Complexity: O(1).
    package mutating func logUniform(_ lower: Double, _ upper: Double) -> Double {
        let low = DeterministicMath.log(lower)
        return DeterministicMath.exp(low + (DeterministicMath.log(upper) - low) * unitInterval())
    }
}
