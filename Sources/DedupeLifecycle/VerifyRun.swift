import DedupeWorkloads

/// `verify`'s run: every selected lifecycle scenario's shape, under every selected variant and
/// (for shapes with a relaunch) every persistence, and the verdict on them.
package enum VerifyRun {
    /// - Parameters:
    ///   - scenarios: ids to check; `nil` for all. Unknown ids throw.
    ///   - variants: ids to check; `nil` for all. Unknown ids throw.
    ///   - backs: overrides every shape's bound on the user going back.
    ///   - limit: orderings per row before the search stops.
    /// - Throws: ``LifecycleSelectionError`` for an unknown id, ``LifecycleConfigurationError``.
    package static func run(
        scenarios: [String]? = nil, variants: [String]? = nil, backs: Int? = nil,
        configuration: LifecycleConfiguration = LifecycleConfiguration(), limit: Int = 20_000_000
    ) throws -> VerifyResults {
        let known = LifecycleShapeCatalogue.all.map(\.scenario)
        if let unknown = scenarios?.first(where: { !known.contains($0) }) {
            throw LifecycleSelectionError(kind: "scenario", id: unknown, known: known)
        }
        let selectedVariants = try PolicyRun.selectVariants(variants)
        var results = VerifyResults()
        for var shape in LifecycleShapeCatalogue.all where scenarios?.contains(shape.scenario) ?? true {
            if let backs { shape.backs = backs }
            results.shapes.append(.init(scenario: shape.scenario, bound: shape.bound, events: shape.events.count, backs: shape.backs))
            let persistences: [Persistence] = shape.hasRelaunch ? Persistence.allCases : [.memory]
            for persistence in persistences {
                for variant in selectedVariants {
                    let outcome = try LifecycleVerifier.verify(
                        shape, policy: variant.policy, persistence: persistence, configuration: configuration, limit: limit)
                    results.rows.append(.init(scenario: shape.scenario, persistence: persistence, variant: variant, outcome: outcome))
                }
            }
        }
        return results
    }
}

/// Every row `verify` checked.
package struct VerifyResults: Sendable {
    package struct ShapeInfo: Sendable {
        package var scenario: String
        package var bound: String
        package var events: Int
        package var backs: Int
    }

    package struct Row: Sendable {
        package var scenario: String
        package var persistence: Persistence
        package var variant: PolicyVariant
        package var outcome: VerifyOutcome
    }

    package var shapes: [ShapeInfo] = []
    package var rows: [Row] = []

    package var orderings: Int { rows.map(\.outcome.orderings).reduce(0, +) }

    /// What the rows show about the published policy and about each switch.
    package var verdict: VerifyVerdict { VerifyVerdict(self) }
}

/// A counterexample with the row it was found in.
package struct LocatedCounterexample: Sendable {
    package var scenario: String
    package var persistence: Persistence
    package var variant: PolicyVariant
    package var example: Counterexample
}

/// The checks `verify` passes or fails on.
package struct VerifyVerdict: Sendable {
    /// One (property, rule) the published policy violates, over every row.
    package struct PublishedViolation: Sendable {
        package var failure: LifecycleFailure
        package var rule: FailureRule
        package var orderings: Int
        package var shortest: LocatedCounterexample?
    }

    /// One switch: the property it protects, violated with the switch in its other position.
    package struct SwitchCheck: Sendable {
        package var variant: PolicyVariant
        package var failure: LifecycleFailure
        package var rule: FailureRule
        /// Orderings violating `failure` by `rule` with the switch not protecting (the variant,
        /// or `published` for a switch it has off).
        package var unprotectedOrderings: Int
        /// The same with the switch protecting: must be 0.
        package var protectedOrderings: Int
        package var shortest: LocatedCounterexample?

        package var holds: Bool { unprotectedOrderings > 0 && protectedOrderings == 0 && shortest != nil }
    }

    package var publishedViolations: [PublishedViolation] = []
    /// Published orderings (summed over properties) with a rule no trade-off, persistence,
    /// identity or model limit explains.
    package var publishedUnexplained = 0
    package var switches: [SwitchCheck] = []

    package var holds: Bool { publishedUnexplained == 0 && switches.allSatisfy(\.holds) }

    init(_ results: VerifyResults) {
        let published = results.rows.filter { $0.variant == .published }
        for row in published {
            publishedUnexplained += row.outcome.unexplained.reduce(0, +)
            for count in row.outcome.byRule {
                let example = row.outcome.counterexample(count.failure, by: count.rule).map {
                    LocatedCounterexample(scenario: row.scenario, persistence: row.persistence, variant: row.variant, example: $0)
                }
                if let index = publishedViolations.firstIndex(where: { $0.failure == count.failure && $0.rule == count.rule }) {
                    publishedViolations[index].orderings += count.orderings
                    publishedViolations[index].shortest = Self.shorter(publishedViolations[index].shortest, example)
                } else {
                    publishedViolations.append(.init(failure: count.failure, rule: count.rule, orderings: count.orderings, shortest: example))
                }
            }
        }
        let categories: [FailureRule.Category] = [.tradeOff, .persistence, .identity, .model, .switchOff, .unexplained]
        publishedViolations.sort {
            (categories.firstIndex(of: $0.rule.category)!, $0.rule.rawValue, $0.failure.rawValue)
                < (categories.firstIndex(of: $1.rule.category)!, $1.rule.rawValue, $1.failure.rawValue)
        }
        let variants = Set(results.rows.map(\.variant))
        for variant in PolicyVariant.allCases where variant != .published && variants.contains(variant) && variants.contains(.published) {
            guard let failure = variant.protectedFailure, let rule = variant.rule else { continue }
            let unprotected = results.rows.filter { $0.variant == (variant.turnsSwitchOn ? .published : variant) }
            let protected = results.rows.filter { $0.variant == (variant.turnsSwitchOn ? variant : .published) }
            var check = SwitchCheck(variant: variant, failure: failure, rule: rule, unprotectedOrderings: 0, protectedOrderings: 0)
            for row in unprotected {
                check.unprotectedOrderings += row.outcome.orderings(violating: failure, by: rule)
                let example = row.outcome.counterexample(failure, by: rule).map {
                    LocatedCounterexample(scenario: row.scenario, persistence: row.persistence, variant: row.variant, example: $0)
                }
                check.shortest = Self.shorter(check.shortest, example)
            }
            check.protectedOrderings = protected.map { $0.outcome.orderings(violating: failure, by: rule) }.reduce(0, +)
            switches.append(check)
        }
    }

    private static func shorter(_ a: LocatedCounterexample?, _ b: LocatedCounterexample?) -> LocatedCounterexample? {
        guard let a else { return b }
        guard let b else { return a }
        return b.example.steps < a.example.steps ? b : a
    }
}
