import PushDedupe

/// A named workload preset.
public struct Scenario: Sendable {
    /// Where a scenario comes from, which decides the report section it appears in.
    public enum Category: String, Sendable, CaseIterable {
        /// One of the four situations of the two-layer article's comparison table.
        case publishedSituation = "published"
        /// One of the three NavigationStack double-push cases.
        case navigationStack = "navigation-stack"
        /// Traffic presets that stress speed and memory.
        case stress
    }

    /// Stable kebab-case id, e.g. `marketing-burst`.
    public var id: String
    /// One line on what it models.
    public var summary: String
    public var category: Category
    private let generate: @Sendable (UInt64) -> Workload

    public init(id: String, summary: String, category: Category, generate: @escaping @Sendable (UInt64) -> Workload) {
        self.id = id
        self.summary = summary
        self.category = category
        self.generate = generate
    }

    /// The scenario's events for `seed`; the same seed gives the same events on every machine.
    public func workload(seed: UInt64) -> Workload {
        generate(seed)
    }
}
