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
        #expect(v1.storeDesign == .snapshot)
        let dedupe = MainActorDeduplicator(preset: v1)
        #expect(type(of: dedupe) == RecommendedPreset.V1MainActor.self)
        #expect(dedupe.pipeline.window.window == .milliseconds(500))
        var consumed = dedupe.pipeline.consumed
        for id in 0..<449 { _ = consumed.consume(EnvelopeID(high: 1, low: UInt64(id)), at: .zero) }
        #expect(consumed.count == 448 && consumed.evictions == 1, "v1 holds 448 ids")
    }

    @Test func versionsAreNamedInOrder() {
        #expect(RecommendedPreset.versions.map(\.version) == RecommendedPreset.versions.indices.map { "v\($0 + 1)" })
    }

    @MainActor @Test func v2IsTheWeekOfAMessagingAppForever() {
        let v2 = RecommendedPreset.v2
        #expect(v2.version == "v2")
        #expect(v2.windowType.strategyID == "hash-deque" && v2.consumedSetType.strategyID == "fifo-set")
        #expect(v2.window.configuration == WindowConfiguration(window: .milliseconds(500), capacity: 4))
        #expect(v2.consumedSet.configuration == ConsumedSetConfiguration(capacity: 1_750))
        let dedupe = MainActorDeduplicator(preset: v2)
        #expect(type(of: dedupe) == RecommendedPreset.V2MainActor.self)
        var consumed = dedupe.pipeline.consumed
        for id in 0..<1_751 { _ = consumed.consume(EnvelopeID(high: 2, low: UInt64(id)), at: .zero) }
        #expect(consumed.count == 1_750 && consumed.evictions == 1, "v2 holds 1,750 ids")
        #expect(v2.storeDesign == .snapshot)
    }

    /// `v3` is `v2`'s pair with the store the run picked by measurement.
    @MainActor @Test func v3IsV2WithTheMeasuredStoreForever() {
        let v3 = RecommendedPreset.v3
        #expect(v3.version == "v3")
        #expect(v3.windowType.strategyID == "hash-deque" && v3.consumedSetType.strategyID == "fifo-set")
        #expect(v3.window.configuration == WindowConfiguration(window: .milliseconds(500), capacity: 4))
        #expect(v3.consumedSet.configuration == ConsumedSetConfiguration(capacity: 1_750))
        #expect(v3.storeDesign == .journal)
        let url = URL(fileURLWithPath: "/tmp/unused-store")
        #expect(v3.store(at: url).design == .journal && v3.store(at: url).url == url)
        #expect(v3.store(at: url).durability == .processKill && v3.store(at: url).protection == .completeUntilFirstUserAuthentication)
    }

    /// `recommended()` builds the newest version: every version has the same types, so no app's
    /// stored property changes type when one is added.
    @MainActor @Test func recommendedBuildsTheLatestVersion() {
        #expect(RecommendedPreset.latest == RecommendedPreset.v3)
        #expect(RecommendedPreset.versions.last?.version == RecommendedPreset.latest.version)
        let recommended = MainActorDeduplicator.recommended()
        #expect(type(of: recommended) == RecommendedPreset.V3MainActor.self)
        #expect(type(of: SharedDeduplicator.recommended()) == RecommendedPreset.V3Shared.self)
        var consumed = recommended.pipeline.consumed
        for id in 0..<1_751 { _ = consumed.consume(EnvelopeID(high: 3, low: UInt64(id)), at: .zero) }
        #expect(consumed.count == 1_750 && consumed.evictions == 1)
    }

    @Test func aDifferentRecommendationIsReported() {
        let other = "**Adopt `ring-buffer` + `rotating-sets` keyed on the push's id.** …\n\n_Case id of the pick: `two-layer/ring-buffer(window=250ms;capacity=64)+rotating-sets(retention=10s;reserve=4096)/push-id/after-every-consume`._"
        let problems = Self.mismatches(headline: other, preset: RecommendedPreset.v1)
        #expect(problems.contains { $0.contains("window strategy: headline `ring-buffer`") })
        #expect(problems.contains { $0.contains("consumed strategy: headline `rotating-sets`") })
        #expect(problems.contains { $0.contains("window: headline `250ms`") })
        #expect(problems.contains { $0.contains("window capacity: headline `64`") })
        #expect(problems.contains { $0.contains("consumed capacity: headline `4096`") })
        #expect(problems.contains { $0.contains("unread parameter `retention=10s`") })
        #expect(Self.mismatches(headline: "no recommendation here", preset: RecommendedPreset.v1) == ["no 'Case id of the pick: `two-layer/A(…)+B(…)/…`'"])
        // The store a persisting pick names is compared with the version's.
        let v3Pick = "**Adopt `hash-deque` + `fifo-set` keyed on the push's id with the `journal` store, behind `NavigationRouter`.** …\n\n_Case id of the pick: `two-layer/hash-deque(window=500ms;reserve=4)+fifo-set(capacity=1750)/push-id/after-every-consume`._"
        #expect(Self.mismatches(headline: v3Pick, preset: RecommendedPreset.v3).isEmpty)
        #expect(Self.mismatches(headline: v3Pick, preset: RecommendedPreset.v2) == ["store: headline `journal`, preset `snapshot`"])
    }

    /// What differs between the headline's pick ("Case id of the pick: `two-layer/A(params)+B(params)/identity/persistence`",
    /// and the store its "**Adopt … with the `design` store" names) and `preset`, one phrase each; empty when they agree. Parameters are the case id's
    /// (`Guides/Harness.md` § Case ids): `window=500ms`, `reserve=8` or `capacity=8`, `capacity=448`.
    static func mismatches(headline: String, preset: any DeduplicatorPresetVersion) -> [String] {
        let pattern = /Case id of the pick: `two-layer\/(?<window>[a-z0-9-]+)\((?<windowParameters>[^)]*)\)\+(?<consumed>[a-z0-9-]+)\((?<consumedParameters>[^)]*)\)\/[a-z-]+\/(?<persistence>[a-z-]+)`/
        guard let match = headline.firstMatch(of: pattern) else { return ["no 'Case id of the pick: `two-layer/A(…)+B(…)/…`'"] }
        let store = headline.firstMatch(of: /^\*\*Adopt [^\n]* with the `(?<store>[a-z-]+)` store/.anchorsMatchLineEndings())?.store
        var problems: [String] = []
        func compare(_ what: String, headline: String, preset: String) {
            if headline != preset { problems.append("\(what): headline `\(headline)`, preset `\(preset)`") }
        }
        // A persisting pick names its store; one kept in memory names none, and any version fits.
        if match.persistence != "memory" {
            compare("store", headline: store.map(String.init) ?? DedupeStore.Design.snapshot.rawValue, preset: preset.storeDesign.rawValue)
        }
        compare("window strategy", headline: String(match.window), preset: preset.windowType.strategyID)
        compare("consumed strategy", headline: String(match.consumed), preset: preset.consumedSetType.strategyID)
        let window = preset.window.configuration
        let milliseconds = Double(window.window.wholeNanoseconds) / 1e6
        for part in match.windowParameters.split(separator: ";").map(String.init) {
            if part.hasPrefix("window=") {
                compare("window", headline: String(part.dropFirst(7)), preset: NumberFormat.plain(milliseconds) + "ms")
            } else if part.hasPrefix("reserve=") || part.hasPrefix("capacity=") {
                compare("window capacity", headline: String(part.split(separator: "=")[1]), preset: String(window.capacity))
            } else {
                problems.append("unread parameter `\(part)`")
            }
        }
        for part in match.consumedParameters.split(separator: ";").map(String.init) {
            if part.hasPrefix("reserve=") || part.hasPrefix("capacity=") {
                compare("consumed capacity", headline: String(part.split(separator: "=")[1]), preset: String(preset.consumedSet.configuration.capacity))
            } else {
                problems.append("unread parameter `\(part)` (a preset of this pair would need it compared)")
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
