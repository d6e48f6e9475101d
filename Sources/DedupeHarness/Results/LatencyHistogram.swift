import Foundation

/// Every latency batch of a case (ns/event of each batch, all timed repetitions pooled), kept as
/// counts in logarithmic buckets so the percentiles can be derived again from the results file
/// without storing thousands of batches per case.
///
/// Bucket `offset + i` holds the batches with ns/event in
/// [2^((offset + i) / bucketsPerDoubling), 2^((offset + i + 1) / bucketsPerDoubling)): with 16
/// buckets per doubling, a percentile read back is within 4.4% of the batch it stands for.
/// Batches at or below 2⁻⁸ ns fall in the first bucket.
public struct LatencyHistogram: Codable, Sendable, Equatable {
    public var bucketsPerDoubling: Int
    /// Index of the first bucket in `counts`.
    public var offset: Int
    /// Batches per bucket, from `offset` on.
    public var counts: [Int]

    public static let defaultBucketsPerDoubling = 16

    public init(batches: [Double], bucketsPerDoubling: Int = defaultBucketsPerDoubling) {
        self.bucketsPerDoubling = bucketsPerDoubling
        let indices = batches.map { Int((log2(Swift.max($0, 0x1p-8)) * Double(bucketsPerDoubling)).rounded(.down)) }
        guard let low = indices.min(), let high = indices.max() else {
            offset = 0
            counts = []
            return
        }
        offset = low
        var counts = [Int](repeating: 0, count: high - low + 1)
        for index in indices { counts[index - low] += 1 }
        self.counts = counts
    }

    /// The lower bound of bucket `index` (absolute), ns/event.
    public func lowerBound(_ index: Int) -> Double {
        exp2(Double(index) / Double(bucketsPerDoubling))
    }

    /// The `q`-quantile (0…1) read back: the geometric middle of the bucket holding it; `nil`
    /// when empty.
    public func quantile(_ q: Double) -> Double? {
        let total = counts.reduce(0, +)
        guard total > 0 else { return nil }
        let rank = Swift.max(1, Int((q * Double(total)).rounded(.up)))
        var seen = 0
        for (i, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return (lowerBound(offset + i) * lowerBound(offset + i + 1)).squareRoot() }
        }
        return nil
    }
}
