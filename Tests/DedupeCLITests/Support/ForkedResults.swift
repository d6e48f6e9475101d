@testable import DedupeMeasurement
@testable import DedupeHarness
import PushDedupe

/// `SyntheticResults` with the fork structure `compare` gates on: every timed case gets
/// `forks × repetitions` samples whose ratio to the reference carries seeded noise between
/// forks and within them, scaled by `factor` (of the case, the fork and the repetition): a change
/// of the case itself. `processShift` scales every case's ns/event in a fork alike, the
/// reference's too, as a slower process does; the ratios cancel it.
enum ForkedResults {
    static func make(
        seed: UInt64 = 7, forks: Int = 6, repetitions: Int = 3, forkNoise: Double = 0.01, repetitionNoise: Double = 0.01,
        processShift: (_ fork: Int) -> Double = { _ in 1 },
        factor: (CaseResult, _ fork: Int, _ repetition: Int) -> Double = { _, _, _ in 1 }
    ) -> RunResults {
        var results = SyntheticResults.make()
        results.settings.forks = forks
        results.settings.forksInChildProcesses = true
        results.settings.repetitions = repetitions
        var random = SplitMix64(seed: seed)
        // Uniform in [−width, width].
        func noise(_ width: Double) -> Double { width * (Double(random.next() % 2_001) / 1_000 - 1) }
        for index in results.cases.indices {
            guard var timing = results.cases[index].timing else { continue }
            let result = results.cases[index]
            let isReference = (result.window ?? "published-literal") == "published-literal" && (result.consumed ?? "set") == "set"
            let base = timing.medianNanosecondsPerEvent
            let ratio = isReference ? 1 : SampleStatistics.median(timing.ratiosToReference)!
            var samples: [Double] = []
            var ratios: [Double] = []
            for fork in 0..<forks {
                let process = 1 + noise(forkNoise)
                for repetition in 0..<repetitions {
                    let scale = process * (1 + noise(repetitionNoise)) * factor(result, fork, repetition)
                    samples.append(base * scale * processShift(fork))
                    ratios.append(isReference ? 1 : ratio * scale)
                }
            }
            timing.samplesNanosecondsPerEvent = samples
            timing.ratiosToReference = ratios
            timing.medianNanosecondsPerEvent = SampleStatistics.median(samples)!
            timing.forks = forks
            results.cases[index].timing = timing
        }
        return results
    }
}
