import Foundation

/// Order statistics of samples: the one median and quantile of the harness and the reports.
package enum SampleStatistics {
    /// `value` to four significant digits, as timings are kept: 0.1% is far below the noise
    /// between repetitions, and the shorter decimals keep `results.json` small.
    package static func stored(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return value }
        let scale = pow(10, 3 - floor(log10(abs(value))))
        return (value * scale).rounded() / scale
    }

    /// The `q`-quantile (0…1) of `sorted` by linear interpolation between closest ranks; 0 for
    /// no samples.
    package static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(sorted.count - 1, lower + 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// The median of `samples` (in any order): the middle value, or the mean of the two middle
    /// ones; `nil` for no samples.
    ///
    /// - Complexity: O(n log n).
    package static func median(_ samples: [Double]) -> Double? {
        samples.isEmpty ? nil : quantile(samples.sorted(), 0.5)
    }

    /// Interquartile range.
    package static func spread(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return quantile(sorted, 0.75) - quantile(sorted, 0.25)
    }
}
