import Foundation

/// Small order statistics the reports need.
enum Statistics {
    /// The median of `sorted` (ascending), or `nil` when empty.
    static func median(_ sorted: [Double]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The geometric mean of the positive values, or `nil` when there are none. Ratios and
    /// ns/event across workloads of different sizes are averaged this way.
    static func geometricMean(_ values: [Double]) -> Double? {
        let positive = values.filter { $0 > 0 }
        guard !positive.isEmpty else { return nil }
        return exp(positive.reduce(0) { $0 + log($1) } / Double(positive.count))
    }
}
