@testable import DedupeDecision
@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe
import Testing
@testable import DedupeReports

/// The decision rule on synthetic results: guarantee, horizon, memory budget, speed.
@Suite struct RecommendationTests {
    typealias F = Fixtures

    /// A profile whose horizon needs 100 ids for 1 day: 100 pushes a day.
    static func profile() -> DeviceProfile {
        DeviceProfile.derive(from: [], windowMilliseconds: 500, facts: HorizonFacts(pushesPerDay: 100, retentionDays: 1))
    }

    static func results(_ cases: [CaseResult], profile: DeviceProfile? = profile(), settings: RecommendationSettings? = nil) -> RunResults {
        var results = F.results(cases)
        results.deviceProfile = profile
        results.settings.recommendation = settings
        return results
    }

    @Test func mayDropWinnerOnSpeedLosesToAnExactOne() {
        let results = Self.results([
            F.pipeline("w", "bloom", ns: 5, bytes: 500, guarantee: .mayDrop(forgetting: .never)),
            F.pipeline("w", "fifo", ns: 20, bytes: 2_000, guarantee: .exactForgetsOldest),
        ])
        let strict = Recommendation.make(from: results)
        #expect(strict.winner?.pair == "w + fifo")
        #expect(strict.assessments.last?.excludedBy == .guarantee)
        #expect(strict.wouldChange.contains { $0.hasPrefix("With --allow-probabilistic, `two-layer/w(window=500ms)+bloom(capacity=1024)/minted/memory`") })
        let allowed = Recommendation.make(from: results, rule: RecommendationRule(allowProbabilistic: true))
        #expect(allowed.winner?.pair == "w + bloom")
        // The rule recorded in the results is the one applied by default.
        let recorded = Self.results(results.cases, settings: RecommendationSettings(allowProbabilistic: true))
        #expect(Recommendation.make(from: recorded).winner?.pair == "w + bloom")
    }

    /// A persisting twin that stopped early (its snapshots passed the bytes a case may write) has
    /// fewer events to err on: it never wins its strategies' best persistence, even with fewer errors.
    @Test func aTwinThatRanOnAPrefixIsNotRanked() {
        func twin(_ persistence: Persistence, missed: Int, eventsRun: Int? = nil) -> CaseResult {
            var result = F.pipeline("w", "set", ns: 10, bytes: 1_000, missed: missed)
            result.identity = .minted
            result.persistence = persistence
            if persistence != .memory {
                result.snapshot = SnapshotResult(
                    relaunches: 3, maximumBytes: 100, meanBytes: 50, meanSnapshotNanoseconds: 1, meanRestoreNanoseconds: 1,
                    eventsRun: eventsRun)
            }
            return result
        }
        let full = twin(.onBackground, missed: 5)
        let prefix = twin(.afterEveryConsume, missed: 0, eventsRun: 40)
        for order in [[twin(.memory, missed: 10), prefix, full], [twin(.memory, missed: 10), full, prefix]] {
            let best = Recommendation.bestTwins(Candidate.aggregate(order), rule: RecommendationRule())
            #expect(best.map(\.choice.persistence) == [.onBackground])
        }
        // Alone with its base, the prefix twin still loses to the base's full run.
        let alone = Recommendation.bestTwins(Candidate.aggregate([prefix, twin(.memory, missed: 10)]), rule: RecommendationRule())
        #expect(alone.map(\.choice.persistence) == [.memory])
    }

    @Test func everythingUnderTheBudgetTiesAndSpeedDecides() {
        let results = Self.results([
            F.pipeline("w", "lean", ns: 30, bytes: 1_000),
            F.pipeline("w", "roomy", ns: 20, bytes: 60_000),
            F.pipeline("w", "fat", ns: 10, bytes: 70_000),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner?.pair == "w + roomy")
        #expect(recommendation.runnerUp?.pair == "w + lean")
        #expect(recommendation.assessments.first { $0.candidate.pair == "w + fat" }?.excludedBy == .memory)
        #expect(recommendation.wouldChange.contains { $0.contains("memory budget of 68.4 KiB or more, `two-layer/w(window=500ms)+fat(capacity=1024)/minted/memory`") })
        let tight = Recommendation.make(from: results, rule: RecommendationRule(memoryBudgetBytes: 10_000))
        #expect(tight.winner?.pair == "w + lean")
        // Nothing under the budget: only the smallest goes on.
        let none = Recommendation.make(from: results, rule: RecommendationRule(memoryBudgetBytes: 10))
        #expect(none.winner?.pair == "w + lean" && none.runnerUp == nil)
    }

    @Test func aSetThatForgetsBeforeTheLongestReplayFailsTheHorizon() {
        var small = F.parameters
        small.consumedCapacity = 50
        var short = F.parameters
        short.retentionMilliseconds = 5_000
        let results = Self.results([
            F.pipeline("w", "tiny-fifo", ns: 5, bytes: 500, guarantee: .exactForgetsOldest, parameters: small),
            F.pipeline("w", "short-rotating", ns: 6, bytes: 500, guarantee: .exactForgetsAfterRetention, parameters: short),
            F.pipeline("w", "direct", ns: 4, bytes: 500, guarantee: .missesOnly),
            F.pipeline("w", "fifo", ns: 10, bytes: 900, guarantee: .exactForgetsOldest),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner?.pair == "w + fifo")
        let reasons = Dictionary(uniqueKeysWithValues: recommendation.assessments.map { ($0.candidate.pair, $0.reason ?? "") })
        #expect(reasons["w + tiny-fifo"] == "capacity 50 < the 100 ids of the 24.0 h horizon")
        #expect(reasons["w + short-rotating"] == "retention 5.00 s < the 24.0 h horizon")
        #expect(reasons["w + direct"]?.contains("no horizon by construction") == true)
        #expect(recommendation.wouldChange.contains { $0.hasPrefix("Without the horizon step, `two-layer/w(window=500ms)+direct(capacity=1024)/minted/memory`") })
        // Results without a profile cannot check the horizon, so the step passes everything.
        #expect(Recommendation.make(from: Self.results(results.cases, profile: nil)).winner?.pair == "w + direct")
    }

    /// Without a profile the declared classes decide a speed tie; with one, a set that forgets
    /// only past the horizon it covers is as good as exact there, and fewer errors, then less
    /// memory, decide.
    @Test func speedTiesGoToTheStrongerGuaranteeThenFewerMatchedErrors() {
        let cases = [
            F.pipeline("w", "fifo", ns: 10, bytes: 500, guarantee: .exactForgetsOldest),
            F.pipeline("w", "set", ns: 10.2, bytes: 900, newlyMissed: 3),
            F.pipeline("w", "set2", ns: 10.1, bytes: 900),
        ]
        #expect(Recommendation.make(from: Self.results(cases, profile: nil)).assessments.map(\.candidate.pair) == ["w + set2", "w + set", "w + fifo"])
        #expect(Recommendation.make(from: Self.results(cases)).assessments.map(\.candidate.pair) == ["w + fifo", "w + set2", "w + set"])
    }

    @Test func noWinnerWhenEveryCandidateMayDrop() {
        let results = Self.results([F.pipeline("w", "bloom", ns: 5, bytes: 500, guarantee: .mayDrop(forgetting: .never))])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.winner == nil)
        #expect(recommendation.noWinnerReason?.contains("--allow-probabilistic") == true)
        #expect(MarkdownReport.headline(results).contains("No pipeline to adopt"))
    }

    /// Matched errors are summed over workloads, never netted.
    @Test func aggregatesOverWorkloads() {
        let results = Self.results([
            F.pipeline("a", "x", ns: 10, bytes: 100, newlyDropped: 1, workload: "one"),
            F.pipeline("a", "x", ns: 40, bytes: 300, missed: 1, newlyMissed: 2, workload: "two"),
        ])
        let winner = Recommendation.make(from: results).winner
        #expect(winner?.workloads == 2)
        #expect(winner?.missedDuplicates == 1)
        #expect(winner?.newlyDropped == 1 && winner?.newlyMissed == 2)
        #expect(winner?.dupEvents == 20)
        #expect(winner?.memoryBytes == 300)
        #expect(abs((winner?.nanosecondsPerEvent ?? 0) - 20) < 1e-9)
    }

    /// Errors and speed come from the device workloads; memory from the largest workload.
    @Test func stressWorkloadsDoNotDecide() {
        var results = Self.results([
            F.pipeline("w", "a", ns: 10, bytes: 100, workload: "phone"),
            F.pipeline("w", "a", ns: 100, bytes: 90_000, newlyMissed: 50, workload: "storm"),
            F.pipeline("w", "b", ns: 20, bytes: 100, workload: "phone"),
            F.pipeline("w", "b", ns: 20, bytes: 100, workload: "storm"),
        ])
        func info(_ id: String, _ tag: String, events: Int) -> WorkloadInfo {
            WorkloadInfo(id: id, description: id, category: nil, tag: tag, events: events, envelopes: 1, replays: 0,
                         replaysWithinWindow: 0, longestReplayMilliseconds: 0, envelopesWithinLongestReplay: 0)
        }
        results.workloads = [info("phone", "device", events: 100), info("storm", "stress", events: 100)]
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.deviceWorkloads == ["phone"])
        let a = recommendation.assessments.first { $0.candidate.pair == "w + a" }?.candidate
        #expect(abs((a?.nanosecondsPerEvent ?? 0) - 10) < 1e-9 && a?.newlyMissed == 0)
        // Same events on both workloads: the larger figure counts.
        #expect(a?.memoryBytes == 90_000)
        #expect(recommendation.winner?.pair == "w + b")
    }

    @Test func windowLengthMinimisesWeightedErrorsOnTheDeviceWorkloads() {
        func point(_ x: Double, drops: Int, missed: Int, workload: String) -> SweepPoint {
            var point = SweepPoint(dimension: .windowLength, x: x, strategy: "published-literal", nanosecondsPerEvent: nil,
                                   bytes: nil, falseDrops: drops, missedDuplicates: missed, events: 100)
            point.workload = workload
            return point
        }
        let results = F.results(sweeps: [
            point(100, drops: 0, missed: 9, workload: "w"), point(500, drops: 2, missed: 4, workload: "w"),
            point(2_000, drops: 5, missed: 2, workload: "w"),
        ])
        #expect(Recommendation.make(from: results).windowLength?.milliseconds == 500)
        #expect(Recommendation.make(from: results, rule: RecommendationRule(dropWeight: 5)).windowLength?.milliseconds == 100)
        #expect(Recommendation.make(from: results, rule: RecommendationRule(dropWeight: 0)).windowLength?.milliseconds == 2_000)
    }

    @Test func prefersTwoLayerAndFallsBackToGuarded() {
        let guardedOnly = F.results([F.pipeline("a", "x", ns: 1, bytes: 1, mode: .twoLayerGuarded)])
        #expect(Recommendation.make(from: guardedOnly).mode == .twoLayerGuarded)
        let none = F.results([F.pipeline("a", "x", ns: 1, bytes: 1, mode: .fingerprintOnly)])
        #expect(Recommendation.make(from: none).winner == nil)
        #expect(MarkdownReport.render(none).contains("no two-layer pipeline case was run"))
    }
}

extension Candidate {
    /// `w + fifo`: the two entry ids, as these tests name their toy pipelines.
    var pair: String { "\(window ?? "-") + \(consumed ?? "-")" }
}

/// The pick behind the shipped router: its `two-layer-guarded` twin at the same strategies,
/// identity and persistence, which the headline shows beside it.
@Suite struct RoutedPickTests {
    @Test func thePickBehindTheRouterIsItsGuardedTwin() throws {
        let results = Fixtures.results([
            Fixtures.pipeline("w", "set", ns: 10, bytes: 1_000, missed: 9),
            Fixtures.pipeline("w", "fifo", ns: 12, bytes: 1_000, missed: 8),
            Fixtures.pipeline("w", "set", ns: 11, bytes: 1_000, missed: 2, newlyDropped: 1, mode: .twoLayerGuarded),
            Fixtures.pipeline("w", "fifo", ns: 13, bytes: 1_000, missed: 1, mode: .twoLayerGuarded),
        ])
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.mode == .twoLayer)
        let winner = try #require(recommendation.winner)
        let routed = try #require(recommendation.withRouter(winner))
        #expect(routed.choice.mode == .twoLayerGuarded)
        #expect(routed.consumed == winner.consumed)
        #expect(routed.missedDuplicates == (winner.consumed == "set" ? 2 : 1))
        let headline = MarkdownReport.headline(results)
        #expect(headline.contains("| Behind the router |") && headline.contains(", behind `NavigationRouter`.**"))
        // Without router cases there is nothing to show beside the pick.
        let plain = Fixtures.results(results.cases.filter { $0.mode == .twoLayer })
        #expect(Recommendation.make(from: plain).routed.isEmpty)
        #expect(!MarkdownReport.headline(plain).contains("Behind the router"))
    }
}
