import Foundation

/// Locale-independent number text for reports, so the same results give byte-identical files.
package enum NumberText {
    /// The shortest text that reads back as the same `Double` (machine-readable files).
    package static func exact(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(describing: value)
    }

    package static func exact(_ value: Double?) -> String {
        value.map { exact($0) } ?? ""
    }

    package static func exact(_ value: Int?) -> String {
        value.map { String($0) } ?? ""
    }

    /// `digits` decimal places (human-readable files).
    package static func fixed(_ value: Double, _ digits: Int) -> String {
        if !value.isFinite { return value.isNaN ? "n/a" : (value > 0 ? "∞" : "-∞") }
        return String(format: "%.\(digits)f", locale: Locale(identifier: "en_US_POSIX"), value)
    }

    /// A value with three significant figures, for tables that mix 0.4 ns and 40 000 ns.
    package static func significant(_ value: Double) -> String {
        if !value.isFinite { return fixed(value, 0) }
        let magnitude = abs(value)
        if magnitude >= 100 || magnitude == 0 { return fixed(value, 0) }
        if magnitude >= 10 { return fixed(value, 1) }
        if magnitude >= 1 { return fixed(value, 2) }
        return fixed(value, 3)
    }

    /// A duration in the unit that reads best: `850 ms`, `5.00 s`, `42.0 min`, `3.50 h`, `8.75 days`.
    package static func duration(milliseconds: Double) -> String {
        let magnitude = abs(milliseconds)
        if magnitude < 1_000 { return significant(milliseconds) + " ms" }
        if magnitude < 120_000 { return significant(milliseconds / 1_000) + " s" }
        if magnitude < 7_200_000 { return significant(milliseconds / 60_000) + " min" }
        if magnitude < 172_800_000 { return significant(milliseconds / 3_600_000) + " h" }
        return significant(milliseconds / 86_400_000) + " days"
    }

    /// A percentage with a sensible number of decimals: `0.123%`.
    package static func percent(_ fraction: Double) -> String {
        significant(fraction * 100) + "%"
    }

    /// Bytes as `512 B`, `3.2 KiB`, `1.5 MiB`.
    package static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var scaled = value
        var unit = 0
        while abs(scaled) >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return (unit == 0 ? fixed(scaled, 0) : significant(scaled)) + " " + units[unit]
    }
}
