import DedupeWorkloads

/// A named script generator for the policy matrix: one of the lifecycle situations added for the
/// policies, or an existing workload scenario run through the lifecycle.
package struct LifecycleScenario: Sendable {
    /// Stable kebab-case id.
    package var id: String
    /// One line on what it models.
    package var summary: String
    /// The variant this scenario is built to show its switch on: the variant fails on it (or,
    /// for a switch the published policy has off, the published policy does), if any.
    package var exercises: PolicyVariant?
    private let generate: @Sendable (_ seed: UInt64, _ scale: Double) -> LifecycleScript

    package init(
        id: String, summary: String, exercises: PolicyVariant?,
        generate: @escaping @Sendable (_ seed: UInt64, _ scale: Double) -> LifecycleScript
    ) {
        self.id = id
        self.summary = summary
        self.exercises = exercises
        self.generate = generate
    }

    /// An existing workload scenario, converted with ``LifecycleScript/init(_:)``.
    package init(reusing scenario: Scenario, exercises: PolicyVariant? = nil) {
        self.init(id: scenario.id, summary: scenario.summary, exercises: exercises) { seed, scale in
            LifecycleScript(scenario.workload(seed: seed, scale: scale))
        }
    }

    /// The script for `seed`; stress scenarios shrink with `scale` (clamped to [10⁻⁴, 1]).
    ///
    /// - Complexity: O(*n* log *n*) in the inputs.
    package func script(seed: UInt64, scale: Double = 1) -> LifecycleScript {
        generate(seed, scale.isNaN ? 1 : min(max(scale, 1e-4), 1))
    }
}
