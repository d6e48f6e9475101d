import Foundation
import PushDedupe
import Testing

/// `RecommendedPreset` must be what the reference run recommends.
@Suite struct RecommendedPresetTests {
    /// Where the preset lives, for the failure message.
    static let presetFile = "Sources/PushDedupe/Adoption/RecommendedPreset.swift"

    @Test func thePresetIsTheHeadlinesRecommendation() throws {
        let headline = try DocumentationBlocks.text("Reports/headline.md")
        let problems = Self.mismatches(headline: headline)
        #expect(problems.isEmpty, """
            Reports/headline.md and RecommendedPreset disagree: \(problems.joined(separator: "; ")). \
            Change RecommendedPreset in \(Self.presetFile) to the headline's pair and parameters.
            """)
    }

    @Test func aDifferentRecommendationIsReported() {
        let other = """
            **Adopt `ring-buffer` + `rotating-sets`** (may-drop + exact; window 250 ms, window capacity 64, reserves 4096 ids, retention 10 s); runner-up `hash-deque + set`.
            """
        let problems = Self.mismatches(headline: other)
        #expect(problems.contains { $0.contains("window strategy: headline `ring-buffer`") })
        #expect(problems.contains { $0.contains("consumed strategy: headline `rotating-sets`") })
        #expect(problems.contains { $0.contains("guarantees: headline `may-drop + exact`") })
        #expect(problems.contains { $0.contains("window 250 ms") })
        #expect(problems.contains { $0.contains("window capacity 64") })
        #expect(problems.contains { $0.contains("consumed capacity 4096") })
        #expect(problems.contains { $0.contains("retention 10 s") })
        #expect(Self.mismatches(headline: "no recommendation here") == ["no '**Adopt `A` + `B`** (parameters)' line"])
    }

    /// What differs between the headline's "**Adopt `A` + `B`** (guarantees; parameters)" line
    /// and the preset, one phrase each; empty when they agree. Parameters are written as
    /// `StrategyParameter.text` writes them.
    static func mismatches(headline: String) -> [String] {
        let pattern = /\*\*Adopt `(?<window>[a-z0-9-]+)` \+ `(?<consumed>[a-z0-9-]+)`\*\* \((?<parameters>[^)]*)\)/
        guard let match = headline.firstMatch(of: pattern) else { return ["no '**Adopt `A` + `B`** (parameters)' line"] }
        var problems: [String] = []
        func compare(_ what: String, headline: String, preset: String) {
            if headline != preset { problems.append("\(what): headline `\(headline)`, preset `\(preset)`") }
        }
        compare("window strategy", headline: String(match.window), preset: RecommendedPreset.Window.strategyID)
        compare("consumed strategy", headline: String(match.consumed), preset: RecommendedPreset.ConsumedSet.strategyID)
        let window = RecommendedPreset.window.configuration
        let consumed = RecommendedPreset.consumedSet.configuration
        var parameters = Substring(match.parameters)
        if let semicolon = parameters.range(of: "; ") {
            compare("guarantees", headline: String(parameters[..<semicolon.lowerBound]),
                    preset: "\(RecommendedPreset.Window.guarantee) + \(RecommendedPreset.ConsumedSet.guarantee)")
            parameters = parameters[semicolon.upperBound...]
        }
        for part in parameters.split(separator: ", ").map(String.init) {
            func number(after prefix: String, unit: String) -> Double? {
                guard part.hasPrefix(prefix), part.hasSuffix(unit) else { return nil }
                return Double(part.dropFirst(prefix.count).dropLast(unit.count))
            }
            func check(_ name: String, _ headline: Double, _ preset: Double, tolerance: Double, unit: String) {
                if abs(headline - preset) > tolerance {
                    problems.append("\(name) \(NumberFormat.plain(headline))\(unit) in the headline, \(NumberFormat.plain(preset))\(unit) in the preset")
                }
            }
            if let value = number(after: "window capacity ", unit: "") ?? number(after: "window reserves ", unit: "") {
                check("window capacity", value, Double(window.capacity), tolerance: 0, unit: "")
            } else if let value = number(after: "window ", unit: " ms") {
                check("window", value, Double(window.window.wholeNanoseconds) / 1e6, tolerance: 1e-9, unit: " ms")
            } else if let value = number(after: "capacity ", unit: "") ?? number(after: "reserves ", unit: " ids") {
                check("consumed capacity", value, Double(consumed.capacity), tolerance: 0, unit: "")
            } else if let value = number(after: "expected ", unit: " ids/s") {
                check("expected rate", value, consumed.expectedRatePerSecond, tolerance: 0.001 * value, unit: " ids/s")
            } else if let value = number(after: "target FP ", unit: "%") {
                // The headline rounds to two decimals of a percent.
                check("target FP", value, consumed.falsePositiveRate * 100, tolerance: 0.005, unit: "%")
            } else if let value = number(after: "retention ", unit: " s") {
                check("retention", value, Double(consumed.retention.wholeNanoseconds) / 1e9, tolerance: 0.05 * value, unit: " s")
            } else {
                problems.append("unknown parameter '\(part)' (teach RecommendedPresetTests to read it)")
            }
        }
        return problems
    }
}

enum NumberFormat {
    /// `500`, `0.25`: no trailing `.0`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
