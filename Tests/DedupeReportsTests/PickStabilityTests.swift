@testable import DedupeMeasurement
@testable import DedupeDecision
@testable import DedupeHarness
import Foundation
import PushDedupe
import Testing
@testable import DedupeReports

/// The committed reference run's pick does not move under the noise the run measured: every
/// timing fork of every case, and every store's cost, scaled by a seeded factor within the run's
/// A/A spread (at least the host margin), gives the same pair, parameters and store, seed after
/// seed. A pick that a re-run on another host could flip fails here first.
@Suite struct PickStabilityTests {
    static let reference = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reports/results.json")

    /// `results` with each case's fork blocks, and each store row, scaled by a factor drawn from
    /// [1 / (1 + noise), 1 + noise].
    static func perturbed(_ results: RunResults, noise: Double, seed: UInt64) -> RunResults {
        var random = SplitMix64(seed: seed)
        func factor() -> Double { exp(Double.random(in: -log1p(noise)...log1p(noise), using: &random)) }
        var copy = results
        for index in copy.cases.indices {
            guard var timing = copy.cases[index].timing, let forks = timing.forks, forks > 0,
                  timing.samplesNanosecondsPerEvent.count % forks == 0 else { continue }
            let perFork = timing.samplesNanosecondsPerEvent.count / forks
            for fork in 0..<forks {
                let scale = factor()
                for sample in (fork * perFork)..<((fork + 1) * perFork) { timing.samplesNanosecondsPerEvent[sample] *= scale }
            }
            timing.medianNanosecondsPerEvent = SampleStatistics.median(timing.samplesNanosecondsPerEvent) ?? timing.medianNanosecondsPerEvent
            copy.cases[index].timing = timing
        }
        if var stores = copy.stores {
            for index in stores.costs.indices {
                let scale = factor()
                stores.costs[index].medianNanoseconds *= scale
                stores.costs[index].p99Nanoseconds *= scale
            }
            copy.stores = stores
        }
        return copy
    }

    @Test func theReferencePickSurvivesTheMeasuredNoise() throws {
        let results = try ResultsJSON.decode(Data(contentsOf: Self.reference))
        let original = Recommendation.make(from: results)
        let winner = try #require(original.winner, "the reference run recommends nothing")
        let noise = max(SpeedModel.hostMargin, original.speed.aaSpread ?? 0)
        for seed in UInt64(1)...12 {
            let again = Recommendation.make(from: Self.perturbed(results, noise: noise, seed: seed))
            #expect(again.winner?.choice == winner.choice, "seed \(seed): \(again.winner?.label ?? "nothing") instead of \(winner.label)")
            #expect(again.store?.design == original.store?.design, "seed \(seed): store \(again.store?.design ?? "none")")
        }
    }

    /// The perturbation itself moves the figures: a test that changed nothing could not fail.
    @Test func thePerturbationMovesEveryTimedFigure() throws {
        let results = try ResultsJSON.decode(Data(contentsOf: Self.reference))
        let moved = Self.perturbed(results, noise: 0.1, seed: 1)
        let timed = zip(results.cases, moved.cases).filter { $0.0.timing != nil }
        #expect(!timed.isEmpty && timed.allSatisfy { $0.0.timing != $0.1.timing })
        #expect(results.stores == nil || results.stores?.costs != moved.stores?.costs)
    }
}
