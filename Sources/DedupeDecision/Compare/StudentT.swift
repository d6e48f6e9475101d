import Foundation

/// Student's t distribution and Welch's unequal-variance t test.
package enum StudentT {
    /// P(T > t) for `degreesOfFreedom` > 0, from the regularized incomplete beta function.
    ///
    /// - Complexity: O(1) (a continued fraction of at most 300 terms).
    package static func upperTail(_ t: Double, degreesOfFreedom: Double) -> Double {
        if t.isNaN { return 1 }
        if t == .infinity { return 0 }
        if t == -.infinity { return 1 }
        let x = degreesOfFreedom / (degreesOfFreedom + t * t)
        let half = 0.5 * regularizedIncompleteBeta(x, degreesOfFreedom / 2, 0.5)
        return t > 0 ? half : 1 - half
    }

    /// The t with P(T > t) = `upper` (0 < `upper` < 1), by bisection on ``upperTail(_:degreesOfFreedom:)``.
    package static func quantile(upper: Double, degreesOfFreedom: Double) -> Double {
        var low = -1e6
        var high = 1e6
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if upperTail(middle, degreesOfFreedom: degreesOfFreedom) > upper { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// The standard normal quantile Φ⁻¹(`p`), by bisection on `erfc`.
    static func normalQuantile(_ p: Double) -> Double {
        var low = -40.0
        var high = 40.0
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if 0.5 * erfc(-middle / 2.0.squareRoot()) < p { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    /// Welch's test of "the mean of `second` exceeds the mean of `first`": t, the
    /// Welch–Satterthwaite degrees of freedom, the standard error of the difference, and the
    /// one-sided p. `nil` unless both samples have at least 2 values. Two samples without any
    /// spread give p = 0 if the second mean is larger, else 1.
    package static func welch(_ first: [Double], _ second: [Double]) -> (t: Double, degreesOfFreedom: Double, standardError: Double, pValue: Double)? {
        guard first.count >= 2, second.count >= 2 else { return nil }
        func moments(_ values: [Double]) -> (mean: Double, variance: Double) {
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
            return (mean, variance)
        }
        let a = moments(first)
        let b = moments(second)
        let va = a.variance / Double(first.count)
        let vb = b.variance / Double(second.count)
        let standardError = (va + vb).squareRoot()
        let difference = b.mean - a.mean
        guard standardError > 0 else {
            return (difference > 0 ? .infinity : 0, Double(first.count + second.count - 2), 0, difference > 0 ? 0 : 1)
        }
        let t = difference / standardError
        let denominator: Double = va * va / Double(first.count - 1) + vb * vb / Double(second.count - 1)
        let degreesOfFreedom = (va + vb) * (va + vb) / denominator
        return (t, degreesOfFreedom, standardError, upperTail(t, degreesOfFreedom: degreesOfFreedom))
    }

    /// I_x(a, b), by the continued fraction of Numerical Recipes (`betacf`), using the symmetry
    /// I_x(a, b) = 1 − I_{1−x}(b, a) where it converges faster.
    static func regularizedIncompleteBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logGammas + logPowers)
        if x < (a + 1) / (a + b + 2) {
            return front * continuedFraction(x, a, b) / a
        }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...300 {
            let m = Double(m)
            var numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + numerator * d
            if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            result *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return result
    }
}
