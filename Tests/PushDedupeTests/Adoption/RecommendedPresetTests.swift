import Foundation
import PushDedupe
import Testing

/// Some version of `RecommendedPreset` must be what the reference run recommends, and no version
/// may change once shipped.
@Suite struct RecommendedPresetTests {
    /// Where the presets live, for the failure message.
    static let presetFile = "Sources/PushDedupe/Adoption/RecommendedPreset.swift"

    @Test func theHeadlinesRecommendationIsAVersion() throws {
        let headline = try DocumentationBlocks.text("Reports/headline.md")
        let problems = RecommendedPreset.versions.map { (version: $0.version, problems: Self.mismatches(headline: headline, preset: $0)) }
        #expect(problems.contains { $0.problems.isEmpty }, """
            Reports/headline.md recommends a pair no RecommendedPreset version is: \
            \(problems.map { "\($0.version): \($0.problems.joined(separator: "; "))" }.joined(separator: " | ")). \
            Add the next version to \(Self.presetFile) with the headline's pair and parameters (never edit a shipped one).
            """)
    }

    /// `v1` is what apps adopted: its types and parameters are fixed here, so an edit fails.
    @MainActor @Test func v1IsTheFirstRecommendationForever() {
        let v1 = RecommendedPreset.v1
        #expect(v1.version == "v1")
        #expect(v1.windowType.strategyID == "hash-deque" && v1.consumedSetType.strategyID == "fifo-set")
        #expect(v1.window.configuration == WindowConfiguration(window: .milliseconds(500), capacity: 8))
        #expect(v1.consumedSet.configuration == ConsumedSetConfiguration(capacity: 448))
        #expect(v1.description == "v1: hash-deque + fifo-set (window 500 ms, window capacity 8, capacity 448)")
        let recommended = MainActorDeduplicator.recommended()
        #expect(type(of: recommended) == RecommendedPreset.V1MainActor.self)
        #expect(type(of: SharedDeduplicator.recommended()) == RecommendedPreset.V1Shared.self)
        #expect(recommended.pipeline.window.window == .milliseconds(500))
        var consumed = recommended.pipeline.consumed
        for id in 0..<449 { _ = consumed.consume(EnvelopeID(high: 1, low: UInt64(id)), at: .zero) }
        #expect(consumed.count == 448 && consumed.evictions == 1, "v1 holds 448 ids")
    }

    @Test func versionsAreNamedInOrder() {
        #expect(RecommendedPreset.versions.map(\.version) == RecommendedPreset.versions.indices.map { "v\($0 + 1)" })
    }

    @Test func aDifferentRecommendationIsReported() {
        let other = """
            **Adopt `ring-buffer` + `rotating-sets`** (may-drop + exact; window 250 ms, window capacity 64, reserves 4096 ids, retention 10 s); runner-up `hash-deque + set`.
            """
        let problems = Self.mismatches(headline: other, preset: RecommendedPreset.v1)
        #expect(problems.contains { $0.contains("window strategy: headline `ring-buffer`") })
        #expect(problems.contains { $0.contains("consumed strategy: headline `rotating-sets`") })
        #expect(problems.contains { $0.contains("guarantees: headline `may-drop + exact`") })
        #expect(problems.contains { $0.contains("window 250 ms") })
        #expect(problems.contains { $0.contains("window capacity 64") })
        #expect(problems.contains { $0.contains("consumed capacity 4096") })
        #expect(problems.contains { $0.contains("retention 10 s") })
        #expect(Self.mismatches(headline: "no recommendation here", preset: RecommendedPreset.v1) == ["no '**Adopt `A` + `B`** (parameters)' line"])
    }

    /// What differs between the headline's "**Adopt `A` + `B`** (guarantees; parameters)" line
    /// and `preset`, one phrase each; empty when they agree. Parameters are written as
    /// `StrategyParameter.text` writes them.
    static func mismatches(headline: String, preset: any DeduplicatorPresetVersion) -> [String] {
        let pattern = /\*\*Adopt `(?<window>[a-z0-9-]+)` \+ `(?<consumed>[a-z0-9-]+)`\*\* \((?<parameters>[^)]*)\)/
        guard let match = headline.firstMatch(of: pattern) else { return ["no '**Adopt `A` + `B`** (parameters)' line"] }
        var problems: [String] = []
        func compare(_ what: String, headline: String, preset: String) {
            if headline != preset { problems.append("\(what): headline `\(headline)`, preset `\(preset)`") }
        }
        compare("window strategy", headline: String(match.window), preset: preset.windowType.strategyID)
        compare("consumed strategy", headline: String(match.consumed), preset: preset.consumedSetType.strategyID)
        let window = preset.window.configuration
        let consumed = preset.consumedSet.configuration
        var parameters = Substring(match.parameters)
        if let semicolon = parameters.range(of: "; ") {
            compare("guarantees", headline: String(parameters[..<semicolon.lowerBound]),
                    preset: "\(preset.windowType.guarantee) + \(preset.consumedSetType.guarantee)")
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
