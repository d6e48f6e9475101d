import PushDedupe

/// Zipf's law over ranks 1…*n*: `P(rank = k) ∝ k^−s`.
///
/// The cumulative distribution is computed once (deterministically, see ``DeterministicMath``);
/// each sample is a uniform draw and a binary search.
struct ZipfDistribution: Sendable {
    /// `cumulative[k − 1]` = P(rank ≤ k); the last entry is exactly 1.
    private let cumulative: [Double]

    /// - Precondition: `count ≥ 1`, `exponent ≥ 0`.
    /// - Complexity: O(*n*).
    init(count: Int, exponent: Double) {
        var weights = [Double](repeating: 0, count: count)
        var total = 0.0
        for rank in 1...count {
            let weight = exponent == 0 ? 1 : DeterministicMath.pow(Double(rank), -exponent)
            total += weight
            weights[rank - 1] = total
        }
        for index in weights.indices {
            weights[index] /= total
        }
        weights[count - 1] = 1
        cumulative = weights
    }

    /// The number of ranks.
    var count: Int { cumulative.count }

    /// P(rank ≤ `rank`).
    ///
    /// - Complexity: O(1).
    func probability(ofRankAtMost rank: Int) -> Double {
        rank <= 0 ? 0 : cumulative[min(rank, count) - 1]
    }

    /// A rank in 1…*n*.
    ///
    /// - Complexity: O(log *n*).
    func sample(using random: inout some RandomNumberGenerator) -> Int {
        let u = random.unitInterval()
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > u {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low + 1
    }
}
