import Foundation
import PushDedupe

/// A configuration value a strategy reads, as the library's registry declares it.
package typealias StrategyParameter = ConfigurationParameter

extension ConfigurationParameter {
    /// `capacity 64`, `target FP 1.00%`: this parameter's value in `parameters`, for reports.
    package func text(_ parameters: CaseParameters) -> String {
        switch self {
        case .windowLength: return "window \(Self.number(parameters.windowMilliseconds)) ms"
        case .windowCapacity: return "window capacity \(parameters.windowCapacity)"
        case .windowReservation: return "window reserves \(parameters.windowCapacity)"
        case .capacity: return "capacity \(parameters.consumedCapacity)"
        case .reservation: return "reserves \(parameters.consumedCapacity) ids"
        case .falsePositiveRate:
            let percent = parameters.falsePositiveRate * 100
            return "target FP \(percent >= 0.01 ? Self.number(percent) + "%" : "\(parameters.falsePositiveRate)")"
        case .retention: return "retention \(Self.number(parameters.retentionMilliseconds / 1_000)) s"
        case .expectedRate: return "expected \(Self.number(parameters.expectedRatePerSecond ?? 0)) ids/s"
        }
    }

    /// Up to four significant digits, no trailing zeros.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.4g", value)
        if text.contains("e") { return text }
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
