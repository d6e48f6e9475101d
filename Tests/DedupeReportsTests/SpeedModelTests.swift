@testable import DedupeDecision
@testable import DedupeHarness
import PushDedupe
import Testing
@testable import DedupeReports

/// The speed step: cost per push with the store, faster only when the paired-fork interval lies
/// beyond the margin, and the margin from the host term and the run's A/A spread.
@Suite struct SpeedModelTests {
    typealias F = Fixtures

    /// A pipeline timed in `forks.count` forks of two repetitions each, fork `i` at `forks[i]`.
    static func timed(_ consumed: String, forks: [Double], bytes: Int = 4_000, guarantee: Guarantee = .exact) -> CaseResult {
        var result = F.pipeline("w", consumed, ns: forks.sorted()[forks.count / 2], bytes: bytes, guarantee: guarantee)
        result.timing?.samplesNanosecondsPerEvent = forks.flatMap { [$0, $0] }
        result.timing?.forks = forks.count
        return result
    }

    static func candidate(_ result: CaseResult) -> Candidate {
        Candidate.aggregate([result])[0]
    }

    /// The twin of `base` that writes after every consume (speed comes from the base: twins are
    /// scored, not timed).
    static func persisting(_ base: CaseResult) -> Candidate {
        var memory = base
        (memory.identity, memory.persistence) = (.minted, .memory)
        var twin = memory
        twin.persistence = .afterEveryConsume
        twin.timing = nil
        return Candidate.aggregate([memory, twin]).first { $0.choice.persistence == .afterEveryConsume }!
    }

    @Test func byForkTakesEachForksMedianAndNeedsTwoForks() {
        let result = Self.timed("a", forks: [10, 12, 14])
        func near(_ values: [Double]?) -> Bool {
            guard let values, values.count == 3 else { return false }
            return zip(values, [10.0, 12, 14]).allSatisfy { abs($0 - $1) < 1e-9 }
        }
        #expect(near(Candidate.byFork([result])))
        #expect(near(Self.candidate(result).nanosecondsPerEventByFork))
        var single = result
        single.timing?.forks = 1
        #expect(Candidate.byFork([single]) == nil)
    }

    /// A lead counts only when the whole interval is beyond the margin: 2× with steady forks is
    /// faster, 5% is a tie, and the same 2× with forks that disagree about the order is a tie.
    @Test func fasterOnlyWhenTheWholeIntervalClearsTheMargin() {
        let speed = SpeedModel()
        let fast = Self.candidate(Self.timed("a", forks: [10, 10.5, 9.8, 10.2]))
        let slow = Self.candidate(Self.timed("b", forks: [20, 21, 19.6, 20.4]))
        let close = Self.candidate(Self.timed("c", forks: [10.5, 11, 10.3, 10.7]))
        #expect(speed.isFaster(fast, than: slow) && !speed.isFaster(slow, than: fast))
        #expect(!speed.isFaster(fast, than: close) && !speed.isFaster(close, than: fast))
        let noisy = Self.candidate(Self.timed("d", forks: [5, 40, 4, 45]))
        #expect(!speed.isFaster(fast, than: noisy) && !speed.isFaster(noisy, than: fast))
    }

    /// The store's cost per consume joins each candidate in proportion to what it navigated, so
    /// a 2× structure lead becomes a tie once the store dominates a push.
    @Test func aStoreThatDominatesAPushTiesStructuresThatDiffer() {
        let fast = Self.persisting(Self.timed("a", forks: [10, 10, 10]))
        let slow = Self.persisting(Self.timed("b", forks: [20, 20, 20]))
        #expect(SpeedModel().isFaster(fast, than: slow))
        let withStore = SpeedModel(storeNanosecondsPerConsume: 1_000)
        #expect(fast.consumesPerEvent > 0)
        #expect(withStore.nanosecondsPerPush(fast) == 10 + 1_000 * fast.consumesPerEvent)
        #expect(!withStore.isFaster(fast, than: slow))
        // A set kept in memory writes nothing per push: the store is not charged to it.
        let inMemory = Self.candidate(Self.timed("c", forks: [20, 20, 20]))
        #expect(withStore.nanosecondsPerPush(inMemory) == inMemory.nanosecondsPerEvent)
    }

    @Test func theMarginIsTheHostTermOrTwiceTheAASpread() {
        #expect(SpeedModel().margin == SpeedModel.hostMargin)
        #expect(SpeedModel(aaSpread: 0.02).margin == SpeedModel.hostMargin)
        #expect(SpeedModel(aaSpread: 0.2).margin == 0.4)
        let reference = Self.timed("set", forks: [100, 110, 120])
        #expect(abs((SpeedModel.aaSpread([reference]) ?? 0) - 0.2) < 1e-12)
    }

    /// Within the margin, the rule breaks the tie on the guarantee within the horizon, then
    /// errors, then memory: a set that forgets only past the horizon it covers ties an exact one
    /// on the guarantee, and the smaller memory wins.
    @Test func aTieGoesToLessMemoryWhenBothAreExactWithinTheHorizon() {
        var fifo = Self.timed("fifo", forks: [21, 21, 21], bytes: 50_000, guarantee: .exactForgetsOldest)
        fifo.parameters.consumedCapacity = 1_000
        let set = Self.timed("set", forks: [20, 20, 20], bytes: 30_000_000)
        let profile = RecommendationTests.profile()
        let rule = RecommendationRule(memoryBudgetBytes: Double(64 << 20))
        let speed = SpeedModel()
        let ranked = rule.assess([Self.candidate(set), Self.candidate(fifo)], profile: profile, speed: speed).map(\.candidate.consumed)
        #expect(ranked == ["fifo", "set"])
        #expect(rule.deciding(Self.candidate(fifo), Self.candidate(set), profile: profile, speed: speed) == .memory)
        // Without the profile, the literal classes decide: the set never forgets.
        #expect(rule.deciding(Self.candidate(fifo), Self.candidate(set), profile: nil, speed: speed) == .guarantee)
    }
}
