@testable import DedupeLifecycle
import DedupeWorkloads
import PushDedupe
import Testing

/// Every counted failure has a cause: the causes add up to each failure column, and each names
/// the rule that let it through.
@Suite struct LifecycleFailureTests {
    static func expectCausesAddUp(_ counts: LifecycleCounts, _ causes: [FailureCause], _ context: @autoclosure () -> String) {
        for failure in LifecycleFailure.allCases {
            let booked = causes.filter { $0.failure == failure }.map(\.count).reduce(0, +)
            #expect(booked == failure.count(in: counts), "\(context()): \(failure.rawValue)")
        }
    }

    /// The whole matrix (stress scenarios scaled down): every row's causes add up, and the
    /// published rows hold only named rules, never a switch or `unexplained`.
    @Test func causesAddUpToEveryFailureColumnOfTheMatrix() throws {
        let results = try PolicyRun.run(seed: 42, scale: 0.05)
        for row in results.rows {
            Self.expectCausesAddUp(row.counts, row.causes ?? [], "\(row.scenario) \(row.persistenceID) \(row.variant.rawValue)")
        }
        for row in results.rows where row.variant == .published {
            let stray = (row.causes ?? []).filter { $0.rule.category == .switchOff || $0.rule.category == .unexplained }
            #expect(stray.isEmpty, "\(row.scenario) \(row.persistenceID): \(stray)")
        }
        let mixed = try #require(results.rows.first { $0.scenario == "mixed-default" && $0.variant == .published })
        #expect((mixed.causes ?? []).allSatisfy { $0.rule.category == .tradeOff }, "\(mixed.causes ?? [])")
        #expect(results.rows.filter { $0.scenario == "stale-initial-notification" }.count
            == Persistence.allCases.count * PolicyVariant.allCases.count)
    }

    /// Random scripts of every input kind, relaunches and backgrounds included, under every
    /// variant and persistence.
    @Test(arguments: 0..<6)
    func causesAddUpOnRandomScripts(seed: Int) throws {
        let script = LifecycleInvariantTests.randomScript(seed: UInt64(seed), inputs: 400, lifecycle: true)
        for persistence in Persistence.allCases {
            var configuration = LifecycleInvariantTests.configuration
            configuration.persistence = persistence
            for variant in PolicyVariant.allCases {
                let outcome = try PolicyRun.outcome(script, policy: variant.policy, configuration: configuration, seed: UInt64(seed))
                Self.expectCausesAddUp(outcome.counts, outcome.causes, "seed \(seed) \(persistence) \(variant)")
            }
        }
    }

    static func rules(_ script: LifecycleScript, _ variant: PolicyVariant, _ failure: LifecycleFailure) throws -> [FailureRule] {
        try PolicyRun.outcome(script, policy: variant.policy, configuration: LifecycleTimelineTests.exact, seed: 1).causes
            .filter { $0.failure == failure }.map(\.rule)
    }

    /// Hand timelines (fetches take exactly 100 ms, nothing fails, the user leaves a screen
    /// after 10 s), one per rule.
    @Test func eachFailureNamesTheRuleThatLetItThrough() throws {
        // Another notification for the screen on top, after the window: the router pushes it again.
        let retap = LifecycleTimelineTests.script { builder, a, _, _ in
            builder.payload(builder.envelope(wanting: a), at: 0)
            builder.payload(builder.envelope(wanting: a), at: 2_000, source: "retap")
        }
        #expect(try Self.rules(retap, .published, .duplicateScreens) == [.unguardedRouterPush])
        #expect(try Self.rules(retap, .routerTopGuard, .duplicateScreens) == [])
        // B at 0, A at 50 (cancelling B's fetch), B again at 100, inside the window of the first
        // B: dropped, so A's fetch lands at 150 over the newest intent, which nothing serves.
        let dropped = LifecycleTimelineTests.script { builder, a, b, _ in
            builder.payload(builder.envelope(wanting: b), at: 0)
            builder.payload(builder.envelope(wanting: a), at: 50)
            builder.payload(builder.envelope(wanting: b), at: 100)
        }
        #expect(try Self.rules(dropped, .published, .lostNavigations) == [.windowFalseDrop])
        #expect(try Self.rules(dropped, .published, .wrongScreens) == [.windowFalseDrop])
        // Two fetches: the first is not cancelled and lands over the second's intent.
        let twoFetches = LifecycleTimelineTests.script { builder, a, b, _ in
            builder.payload(builder.envelope(wanting: a), at: 0)
            builder.payload(builder.envelope(wanting: b), at: 50)
        }
        #expect(try Self.rules(twoFetches, .keepInFlight, .wrongScreens) == [.keepInFlight])
        #expect(try Self.rules(twoFetches, .keepInFlight, .overlappingTasks) == [.keepInFlight])
        // A disabled tab replayed on re-attach.
        let disabled = LifecycleTimelineTests.script { builder, _, _, d in
            builder.payload(builder.envelope(wanting: d), at: 0)
            builder.event(.hostDetach, at: 1_000)
            builder.event(.hostAttach, at: 2_000)
        }
        #expect(try Self.rules(disabled, .consumeOnSuccessOnly, .reprocessedEnvelopes) == [.consumeOnSuccessOnly])
        let checkout = LifecycleTimelineTests.navigation { builder, _ in
            let intent = builder.intent(wanting: .max)
            builder.event(.checkoutTap, intent: intent, at: 0)
            builder.event(.checkoutTap, intent: intent, at: 50)
        }
        #expect(try Self.rules(checkout, .noLoadingGuard, .wrongScreens) == [.noLoadingGuard])
        #expect(try Self.rules(checkout, .noLoadingGuard, .overlappingTasks) == [.noLoadingGuard])
        let owners = LifecycleTimelineTests.navigation { builder, a in
            let intent = builder.intent(wanting: a)
            builder.event(.tap, route: a, intent: intent, at: 0)
            builder.event(.childAppend, route: a, intent: intent, at: 5)
        }
        #expect(try Self.rules(owners, .twoPathOwners, .duplicateScreens) == [.twoPathOwners])
        #expect(try Self.rules(owners, .noLastRouteGuard, .duplicateScreens) == [.noLastRouteGuard])
        // Cold launch: the ready callback reaches the handler before the host (consumed on the
        // early return), so the attach's replay is stopped.
        let noHost = LifecycleTimelineTests.script(hostAttached: false) { builder, a, _, _ in
            let envelope = builder.envelope(wanting: a)
            builder.payload(envelope, at: 10, source: "cold_launch")
            builder.emit(envelope, at: 20, source: "ready_callback")
            builder.event(.hostAttach, at: 1_000)
        }
        #expect(try Self.rules(noHost, .published, .lostNavigations) == [.consumedOnNoHost])
    }
}
