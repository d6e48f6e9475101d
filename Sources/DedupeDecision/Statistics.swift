import Foundation

/// Averages the reports need (the median is `SampleStatistics.median`, shared with the harness).
enum Statistics {
    /// The geometric mean of the positive values, or `nil` when there are none. Ratios and
    /// ns/event across workloads of different sizes are averaged this way.
    static func geometricMean(_ values: [Double]) -> Double? {
        let positive = values.filter { $0 > 0 }
        guard !positive.isEmpty else { return nil }
        return exp(positive.reduce(0) { $0 + log($1) } / Double(positive.count))
    }
}
