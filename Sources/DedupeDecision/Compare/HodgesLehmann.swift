import Foundation

/// The Hodges–Lehmann estimate of a shift between two samples, with its distribution-free
/// confidence interval (Moses): the median and two order statistics of the n₁n₂ pairwise
/// differences `second[j] − first[i]`.
package enum HodgesLehmann {
    package struct Estimate: Sendable, Equatable {
        /// Median of the pairwise differences.
        package var shift: Double
        /// Bounds of the two-sided interval at the requested confidence.
        package var lower: Double
        package var upper: Double
    }

    /// The shift of `second` against `first` with a two-sided `confidence` interval, or `nil`
    /// when a sample is empty or the samples are too small for any interval at that confidence
    /// (``rankOfLowerBound(_:_:confidence:)`` is 0).
    ///
    /// The interval is [d₍C₎, d₍n₁n₂+1−C₎] of the sorted differences, with C from the exact
    /// Mann–Whitney distribution of U when both samples have at most 20 values, else from its
    /// normal approximation.
    ///
    /// - Complexity: O(n₁n₂ log(n₁n₂)), plus the exact distribution's O(n₁n₂(n₁+n₂)).
    package static func estimate(_ first: [Double], _ second: [Double], confidence: Double) -> Estimate? {
        guard !first.isEmpty, !second.isEmpty else { return nil }
        let rank = rankOfLowerBound(first.count, second.count, confidence: confidence)
        guard rank > 0 else { return nil }
        var differences: [Double] = []
        differences.reserveCapacity(first.count * second.count)
        for after in second { for before in first { differences.append(after - before) } }
        differences.sort()
        let count = differences.count
        let shift = count % 2 == 1 ? differences[count / 2] : (differences[count / 2 - 1] + differences[count / 2]) / 2
        return Estimate(shift: shift, lower: differences[rank - 1], upper: differences[count - rank])
    }

    /// C, the 1-based rank among the sorted differences of the interval's lower bound: the
    /// largest C with P(U ≤ C − 1) ≤ (1 − confidence) / 2 under the null hypothesis. 0 when even
    /// the most extreme arrangement is more likely than that, so no interval exists.
    package static func rankOfLowerBound(_ n1: Int, _ n2: Int, confidence: Double) -> Int {
        let tail = (1 - confidence) / 2
        if n1 <= 20 && n2 <= 20 {
            let maxU = n1 * n2
            var rank = 0
            // P(U ≤ c) = P(U ≥ n₁n₂ − c) by symmetry.
            while rank < maxU / 2, MannWhitneyU.exactUpperTail(u: maxU - rank, n1: n1, n2: n2) <= tail { rank += 1 }
            return rank
        }
        let mean = Double(n1 * n2) / 2
        let deviation = (Double(n1 * n2) * Double(n1 + n2 + 1) / 12).squareRoot()
        return max(0, Int((mean - StudentT.normalQuantile(1 - tail) * deviation).rounded(.down)))
    }
}
