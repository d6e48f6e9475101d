import Foundation

/// The Mann–Whitney U test (Wilcoxon rank-sum) for "the second sample tends to be larger".
///
/// Exact when both samples have at most 20 values and no value is tied: the null distribution
/// of U is counted by the standard recurrence over all C(n₁+n₂, n₁) rank assignments. Otherwise
/// the normal approximation with a continuity correction of ½ and the tie-corrected variance
/// σ² = n₁n₂/12 · ((n+1) − Σ(t³−t)/(n(n−1))).
package enum MannWhitneyU {
    package struct Result: Sendable, Equatable {
        /// U of the second sample: the number of (first, second) pairs where the second is
        /// larger, ties counting ½.
        package var u: Double
        /// One-sided p-value for "the second sample is stochastically larger".
        package var pValue: Double
        /// Whether `pValue` came from the exact distribution.
        package var exact: Bool
    }

    /// Tests whether `second` tends to exceed `first`. Returns `nil` when either sample is empty.
    ///
    /// - Complexity: O(n log n), plus O(n₁ n₂ (n₁+n₂)) for the exact distribution.
    package static func test(_ first: [Double], _ second: [Double]) -> Result? {
        let n1 = first.count
        let n2 = second.count
        guard n1 > 0, n2 > 0 else { return nil }
        let pooled = (first.map { ($0, 0) } + second.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end + 1 < pooled.count, pooled[end + 1].0 == pooled[start].0 { end += 1 }
            let rank = Double(start + end + 2) / 2
            for index in start...end { ranks[index] = rank }
            let t = Double(end - start + 1)
            tieTerm += t * t * t - t
            start = end + 1
        }
        let rankSumSecond = zip(pooled, ranks).reduce(0.0) { $0 + ($1.0.1 == 1 ? $1.1 : 0) }
        let u = rankSumSecond - Double(n2 * (n2 + 1)) / 2

        if tieTerm == 0, n1 <= 20, n2 <= 20 {
            return Result(u: u, pValue: exactUpperTail(u: Int(u), n1: n1, n2: n2), exact: true)
        }
        let n = Double(n1 + n2)
        let mean = Double(n1 * n2) / 2
        let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return Result(u: u, pValue: 1, exact: false) }
        let z = (u - mean - 0.5) / variance.squareRoot()
        return Result(u: u, pValue: 0.5 * erfc(z / 2.0.squareRoot()), exact: false)
    }

    /// P(U ≥ u) under the null hypothesis, by counting arrangements.
    static func exactUpperTail(u: Int, n1: Int, n2: Int) -> Double {
        // counts[i][j][k]: arrangements of i first-sample and j second-sample values with U = k,
        // built one value (the largest) at a time. Only the previous i layer is kept.
        let maxU = n1 * n2
        var previous = [[Double]](repeating: [], count: n2 + 1)
        for j in 0...n2 {
            previous[j] = [Double](repeating: 0, count: maxU + 1)
            previous[j][0] = 1
        }
        for i in 1...n1 {
            var current = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: n2 + 1)
            current[0][0] = 1
            for j in 1...n2 {
                for k in 0...(i * j) {
                    // The largest value is from the second sample (beats all i first values)...
                    let fromSecond = k >= i ? current[j - 1][k - i] : 0
                    // ...or from the first sample (adds nothing to U).
                    let fromFirst = previous[j][k]
                    current[j][k] = fromSecond + fromFirst
                }
            }
            previous = current
        }
        let counts = previous[n2]
        let total = counts.reduce(0, +)
        let tail = counts[min(max(u, 0), maxU)...].reduce(0, +)
        return tail / total
    }
}
