@testable import DedupeLifecycle
import DedupeWorkloads
import Testing

/// `verify`'s search: its counts against hand-computed ones, every ordering against a run from
/// scratch, its counterexamples against replays, and policies it was not built for.
@Suite struct LifecycleVerifierTests {
    static func shape(_ scenario: String, backs: Int? = nil) throws -> LifecycleShape {
        var shape = try #require(LifecycleShapeCatalogue.shape(for: scenario))
        if let backs { shape.backs = backs }
        return shape
    }

    @Test func everyLifecycleScenarioHasAShape() {
        let missing = LifecycleScenarioCatalogue.all.map(\.id).filter { LifecycleShapeCatalogue.shape(for: $0) == nil }
        #expect(missing.isEmpty, "\(missing)")
        #expect(LifecycleShapeCatalogue.all.count == LifecycleScenarioCatalogue.all.count)
    }

    /// A payload P and its re-emit E, host attached, by hand. Published: after P, E may come
    /// before task 1 ends (which then succeeds or fails: 2) or after it (E is stopped: 2): 4.
    /// `consume-after-success`: P E runs the handler again, task 2 asks task 1 to cancel, and
    /// the two end in either order, task 1 one way and task 2 two ways: 4; P, task 1 succeeds
    /// (consumed after its push), E stopped: 1; P, task 1 fails (never consumed), E starts task
    /// 2, which ends two ways: 2. Seven, six of them handling the envelope twice. With one back
    /// allowed, each ordering that ends with a screen on the path also ends with the back, and
    /// a back between task 1's push and E doubles those: 7 and 13.
    @Test func handSizedShapeExploresTheHandCountedOrderings() throws {
        let withoutBack = try Self.shape("reemit-during-fetch", backs: 0)
        let published = try LifecycleVerifier.verify(withoutBack, policy: .published, persistence: .memory)
        #expect(published.orderings == 4)
        #expect(published.violations.allSatisfy { $0 == 0 })
        let after = try LifecycleVerifier.verify(withoutBack, policy: PolicyVariant.consumeAfterSuccess.policy, persistence: .memory)
        #expect(after.orderings == 7)
        #expect(after.violations(of: .reprocessedEnvelopes) == 6)
        #expect(after.orderings(violating: .reprocessedEnvelopes, by: .consumeAfterSuccess) == 6)
        let withBack = try Self.shape("reemit-during-fetch", backs: 1)
        #expect(try LifecycleVerifier.verify(withBack, policy: .published, persistence: .memory).orderings == 7)
        #expect(try LifecycleVerifier.verify(withBack, policy: PolicyVariant.consumeAfterSuccess.policy, persistence: .memory).orderings == 13)
    }

    /// Two payloads of one screen for two intents: the second's gap is short or long only once
    /// the first reached layer 1. Published, no back: P1 then P2 short (dropped; task 1 ends two
    /// ways: 2) or long (a new envelope cancels task 1 if it still runs: task 1 one way, task 2
    /// two ways, either order: 4) or task 1 ends first (two ways) and P2 comes short (dropped: 2)
    /// or long (task 2 ends two ways: 4): 12.
    @Test func gapsAreExploredOnlyWhereTheWindowDecides() throws {
        let shape = try Self.shape("retap-after-window", backs: 0)
        #expect(try LifecycleVerifier.verify(shape, policy: .published, persistence: .memory).orderings == 12)
    }

    /// The search copies the simulator's state at each branch; every ordering it reaches must
    /// give the counts of a fresh run of its script, through the script file format too.
    @Test(arguments: ["reemit-during-fetch", "cold-launch-late-host", "two-fetches-quick-succession", "checkout-double-tap",
                      "path-owned-twice", "retap-after-window", "relaunch-mid-fetch", "stale-initial-notification"])
    func everyOrderingReplaysFromScratchToTheSameCounts(scenario: String) throws {
        let shape = try Self.shape(scenario)
        let persistences: [Persistence] = shape.hasRelaunch ? Persistence.allCases : [.memory]
        for persistence in persistences {
            var configuration = LifecycleConfiguration()
            configuration.persistence = persistence
            for variant in PolicyVariant.allCases {
                var orderings = 0
                var mismatches: [String] = []
                try LifecycleVerifier.forEachOrdering(shape, policy: variant.policy, persistence: persistence) { script, counts in
                    orderings += 1
                    let fresh = try? PolicyRun.outcome(script, policy: variant.policy, configuration: configuration, seed: 0)
                    if fresh?.counts != counts { mismatches.append(LifecycleScriptFile.render(script, persistence: persistence)) }
                    if orderings % 5 == 0 {
                        let text = LifecycleScriptFile.render(script, persistence: persistence)
                        let parsed = try? LifecycleScriptFile(parsing: text, fileName: "ordering")
                        let replayed = parsed.flatMap { try? PolicyRun.outcome($0.script, policy: variant.policy, configuration: configuration, seed: 0) }
                        if replayed?.counts != counts { mismatches.append("through the file format:\n" + text) }
                    }
                }
                #expect(orderings > 0)
                #expect(mismatches.isEmpty, "\(scenario) \(persistence) \(variant): \(mismatches.first ?? "")")
            }
        }
    }

    /// The shortest `consume-after-success` counterexample, printed as a file and parsed back,
    /// replays to a reprocessed envelope under that variant and to none under `published`.
    @Test func consumeAfterSuccessCounterexampleReplaysToAReprocessedEnvelope() throws {
        let results = try VerifyRun.run(scenarios: ["reemit-during-fetch"], variants: ["published", "consume-after-success"])
        let check = try #require(results.verdict.switches.first { $0.variant == .consumeAfterSuccess })
        #expect(check.holds)
        let shortest = try #require(check.shortest)
        let text = LifecycleScriptFile.render(shortest.example.script, persistence: nil)
        let file = try LifecycleScriptFile(parsing: text, fileName: "counterexample.script")
        let replay = try PolicyRun.run(script: file.script, seed: 42, variants: ["published", "consume-after-success"])
        let after = try #require(replay.rows.first { $0.variant == .consumeAfterSuccess })
        #expect(after.counts.reprocessedEnvelopes == 1)
        let causes = after.causes ?? []
        #expect(causes.contains { $0.failure == .reprocessedEnvelopes && $0.rule == .consumeAfterSuccess })
        let published = try #require(replay.rows.first { $0.variant == .published })
        #expect(published.counts.reprocessedEnvelopes == 0)
    }

    /// Policies `verify` does not list are checked all the same: the published policy with the
    /// consume moved after the push is caught handling an envelope twice, and the article's
    /// first code (that, and no cancel) stacking a screen twice; each counterexample replays.
    @Test func aDeliberatelyBrokenPolicyIsCaught() throws {
        var consumeAfterPush = LifecyclePolicy.published
        consumeAfterPush.consumeBeforeAsyncWork = false
        var firstCode = consumeAfterPush
        firstCode.cancelInFlightTask = false
        for (policy, failure) in [(consumeAfterPush, LifecycleFailure.reprocessedEnvelopes), (firstCode, .duplicateScreens)] {
            var caught: Counterexample?
            for shape in LifecycleShapeCatalogue.all where shape.scenario != "mixed-default" {
                let outcome = try LifecycleVerifier.verify(shape, policy: policy, persistence: .memory)
                if outcome.violations(of: failure) > 0 { caught = caught ?? outcome.counterexamples.first { $0.failure == failure } }
            }
            let example = try #require(caught, "\(failure) not caught")
            let replay = try PolicyRun.outcome(example.script, policy: policy, configuration: LifecycleConfiguration(), seed: 0)
            #expect(failure.count(in: replay.counts) > 0)
            #expect(try PolicyRun.outcome(example.script, policy: .published, configuration: LifecycleConfiguration(), seed: 0)
                .counts.reprocessedEnvelopes == 0)
        }
    }

    /// On every shape but the largest, the published policy violates nothing but named rules
    /// (trade-offs, persistence), and each switch's protected property fails without it.
    @Test func verdictHoldsOnTheSmallShapes() throws {
        let small = LifecycleShapeCatalogue.all.map(\.scenario).filter { $0 != "mixed-default" }
        let verdict = try VerifyRun.run(scenarios: small).verdict
        #expect(verdict.publishedUnexplained == 0)
        #expect(verdict.publishedViolations.allSatisfy { $0.rule.category == .tradeOff || $0.rule.category == .persistence })
        #expect(verdict.publishedViolations.contains { $0.rule == .windowFalseDrop && $0.failure == .lostNavigations })
        #expect(verdict.publishedViolations.contains { $0.rule == .unguardedRouterPush && $0.failure == .duplicateScreens })
        #expect(verdict.switches.count == PolicyVariant.allCases.count - 1)
        for check in verdict.switches { #expect(check.holds, "\(check.variant)") }
        #expect(verdict.holds)
    }

    @Test func limitStopsTheSearchAndSaysSo() throws {
        let outcome = try LifecycleVerifier.verify(try Self.shape("mixed-default"), policy: .published, persistence: .memory, limit: 50)
        #expect(outcome.limitReached)
        #expect(outcome.orderings == 50)
    }
}
