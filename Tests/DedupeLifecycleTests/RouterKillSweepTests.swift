@testable import DedupeLifecycle
import PushDedupe
import Testing

/// A process killed at every step of a routed push, through the shipped router core.
@Suite struct RouterKillSweepTests {
    /// Reserve-then-commit loses no tap and shows no screen twice, wherever the process dies.
    @Test func theDefaultLosesNothingAndShowsNothingTwice() {
        let sweep = RouterKillSweep.run(RouterConfiguration(), named: "default")
        #expect(sweep.consume == ConsumeTiming.reserveThenCommit.rawValue)
        // Two requests, a cancel, two commits, an append: more than a handful of kill points.
        #expect(sweep.killPoints > 5)
        #expect(sweep.tapsLost == 0)
        #expect(sweep.duplicatesShown == 0)
    }

    /// Committed before the fetch, the tap is lost when the process dies between the commit and
    /// the append; never shown twice.
    @Test func thePublishedOrderLosesTheTapMidFetch() {
        let sweep = RouterKillSweep.run(.published, named: "published")
        #expect(sweep.consume == ConsumeTiming.commitBeforeWork.rawValue)
        #expect(sweep.tapsLost > 0)
        #expect(sweep.tapsLost < sweep.killPoints, "killed before the receipt's commit, the replay shows it")
        #expect(sweep.duplicatesShown == 0)
    }

    /// The policy run carries both figures for its reports.
    @Test func thePolicyRunCarriesBothConfigurations() throws {
        let policies = try PolicyRun.run(seed: 42, scenarios: ["button-double-tap"], variants: ["published"])
        #expect(policies.killSweep == RouterKillSweep.both())
        #expect(policies.killSweep?.map(\.configuration) == ["default", "published"])
    }
}
