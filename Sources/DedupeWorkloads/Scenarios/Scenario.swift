import PushDedupe

/// A named workload preset.
package struct Scenario: Sendable {
    /// Where a scenario comes from, which decides the report section it appears in.
    package enum Category: String, Sendable, CaseIterable {
        /// One of the four situations of the two-layer article's comparison table.
        case publishedSituation = "published"
        /// One of the three NavigationStack double-push cases.
        case navigationStack = "navigation-stack"
        /// Traffic presets that stress speed and memory.
        case stress
        /// A duplicate mechanism from public bug reports against push SDKs and apps, or a device
        /// week that runs them all at published push rates.
        case realWorld = "real-world"
    }

    /// Whether one phone plausibly sees this traffic, which decides whether it may steer the
    /// recommendation. See `Guides/Workloads.md` § Device and stress scenarios.
    package enum Tag: String, Sendable, CaseIterable, Codable {
        /// At most a few pushes a minute sustained, with bursts of tens: what one device sees.
        case device
        /// Beyond one device (campaign fan-out, 10⁶-event sessions): robustness only.
        case stress
    }

    /// Stable kebab-case id, e.g. `marketing-burst`.
    package var id: String
    /// One line on what it models.
    package var summary: String
    package var category: Category
    package var tag: Tag
    private let generate: @Sendable (UInt64, Double) -> Workload
    /// The generation with other fetch facts, for a scenario whose actions draw their fetch from
    /// ``ActionTimingFacts``.
    private let timedGenerate: (@Sendable (UInt64, ActionTimingFacts) -> Workload)?

    /// A scenario whose size does not depend on the scale.
    package init(
        id: String, summary: String, category: Category, tag: Tag, generate: @escaping @Sendable (UInt64) -> Workload
    ) {
        self.init(id: id, summary: summary, category: category, tag: tag, generate: { seed, _ in generate(seed) })
    }

    /// A scenario that shrinks with the scale passed to ``workload(seed:scale:)``.
    package init(
        id: String, summary: String, category: Category, tag: Tag,
        generate: @escaping @Sendable (_ seed: UInt64, _ scale: Double) -> Workload
    ) {
        self.init(id: id, summary: summary, category: category, tag: tag, generate: generate, timedGenerate: nil)
    }

    /// A scenario whose actions draw their fetch from `ActionTimingFacts`; its size does not
    /// depend on the scale.
    package init(
        id: String, summary: String, category: Category, tag: Tag,
        timedGenerate: @escaping @Sendable (_ seed: UInt64, _ facts: ActionTimingFacts) -> Workload
    ) {
        self.init(id: id, summary: summary, category: category, tag: tag,
                  generate: { seed, _ in timedGenerate(seed, .published) }, timedGenerate: timedGenerate)
    }

    private init(
        id: String, summary: String, category: Category, tag: Tag,
        generate: @escaping @Sendable (UInt64, Double) -> Workload,
        timedGenerate: (@Sendable (UInt64, ActionTimingFacts) -> Workload)?
    ) {
        self.id = id
        self.summary = summary
        self.category = category
        self.tag = tag
        self.generate = generate
        self.timedGenerate = timedGenerate
    }

    /// Whether the scenario's actions draw their fetch from ``ActionTimingFacts``.
    package var drawsFetches: Bool { timedGenerate != nil }

    /// The scenario's events for `seed` with every fetch drawn from `facts`; nil for a scenario
    /// that draws no fetch (``drawsFetches``). At ``ActionTimingFacts/published`` these are
    /// ``workload(seed:)``'s events.
    package func workload(seed: UInt64, actionTiming facts: ActionTimingFacts) -> Workload? {
        timedGenerate.map { $0(seed, facts) }
    }

    /// The scenario's events for `seed` at full size; the same seed gives the same events on
    /// every machine.
    ///
    /// - Complexity: O(*n* log *n*) in the events generated.
    package func workload(seed: UInt64) -> Workload {
        generate(seed, 1)
    }

    /// The scenario's events for `seed`, with the stress scenarios shrunk to `scale` of their
    /// size for quick runs.
    ///
    /// `scale` is clamped to [10⁻⁴, 1] (NaN counts as 1). The episodic scenarios and the device
    /// weeks are small already and ignore it.
    ///
    /// - Complexity: O(*n* log *n*) in the events generated.
    package func workload(seed: UInt64, scale: Double) -> Workload {
        generate(seed, scale.isNaN ? 1 : min(max(scale, 1e-4), 1))
    }
}
