/// `log` and `exp` computed with basic IEEE 754 arithmetic only.
///
/// `package`, not `public`: an internal of the strategies (filter sizing) and the workloads
/// (sampling), not API for apps.
///
/// The strategy module imports no platform maths library, and the platform's libm may differ in the last bit between Linux, macOS and library versions, and
/// one different bit in a delay can move an event across a window boundary. These versions use
/// only `+ - * /`, which IEEE 754 rounds identically everywhere (Swift never contracts them into
/// fused multiply-adds on its own), so a seed gives the same workload, and a configuration the same filter size, on every machine. They are
/// accurate to a few ulps, far finer than the nanosecond rounding every sample goes through.
package enum DeterministicMath {
    /// ln 2 split into a high part with trailing zero bits and a correction (fdlibm's constants),
    /// so `k * ln2High` is exact for the |k| ≤ 1100 that finite doubles need.
    package static let ln2High = 6.931_471_803_691_238_164_90e-01
    package static let ln2Low = 1.908_214_929_270_587_700_02e-10
    package static let ln2 = 0.693_147_180_559_945_309_417_232_121_458

    /// The natural logarithm of a positive, finite `x`; `-infinity` for 0, `nan` for negatives.
    ///
    /// Reduces `x = m · 2ᵉ` with `m` in [√½, √2), then sums the series
    /// `ln m = 2 atanh f = 2(f + f³/3 + f⁵/5 + …)` with `f = (m − 1)/(m + 1)`, `|f| < 0.172`.
    ///
    /// - Complexity: O(1).
    package static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var exponent = Double(x.exponent)
        var mantissa = x.significand
        if mantissa > 1.414_213_562_373_095_1 {
            mantissa /= 2
            exponent += 1
        }
        let f = (mantissa - 1) / (mantissa + 1)
        let s = f * f
        // Terms up to s¹⁰ leave an error below 0.0295¹¹ / 23, i.e. under 10⁻¹⁸.
        var series = 1.0 / 21
        for denominator in stride(from: 19.0, through: 1, by: -2) {
            series = series * s + 1 / denominator
        }
        return exponent * ln2High + (exponent * ln2Low + 2 * f * series)
    }

    /// `e` raised to `x`; 0 below −745, `+infinity` above 709.78.
    ///
    /// Reduces `x = k ln 2 + r` with |r| ≤ ½ ln 2, sums the Taylor series of `eʳ` to r¹⁴, then
    /// scales by 2ᵏ exactly.
    ///
    /// - Complexity: O(1).
    package static func exp(_ x: Double) -> Double {
        guard !x.isNaN else { return x }
        if x > 709.782_712_893_384 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        var series = 1.0
        for n in stride(from: 14.0, through: 1, by: -1) {
            series = 1 + series * r / n
        }
        // Split the scaling so that neither factor overflows or flushes on its own near the limits.
        let half = (k / 2).rounded(.towardZero)
        return series * Double(sign: .plus, exponent: Int(half), significand: 1)
            * Double(sign: .plus, exponent: Int(k - half), significand: 1)
    }

    /// `base` raised to `exponent`, for a positive `base`.
    ///
    /// - Complexity: O(1).
    package static func pow(_ base: Double, _ exponent: Double) -> Double {
        exp(exponent * log(base))
    }

    /// `x` raised to a non-negative integer power, by repeated squaring.
    ///
    /// - Complexity: O(log n).
    package static func power(_ x: Double, _ n: Int) -> Double {
        var result = 1.0
        var base = x
        var exponent = n
        while exponent > 0 {
            if exponent & 1 == 1 { result *= base }
            base *= base
            exponent >>= 1
        }
        return result
    }
}
