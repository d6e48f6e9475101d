import Foundation
import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct SamplingTests {
    @Test func deterministicLogAndExpMatchTheLibraryToAFewUlps() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let x = DeterministicMath.exp(random.uniform(-700, 700))
            #expect(abs(DeterministicMath.log(x) - Foundation.log(x)) <= 4e-16 * max(1, abs(Foundation.log(x))))
            let y = random.uniform(-700, 700)
            #expect(abs(DeterministicMath.exp(y) - Foundation.exp(y)) <= 4e-16 * Foundation.exp(y))
        }
        #expect(DeterministicMath.log(1) == 0)
        #expect(DeterministicMath.exp(0) == 1)
        #expect(DeterministicMath.log(0) == -.infinity)
        #expect(DeterministicMath.log(-1).isNaN)
        #expect(DeterministicMath.exp(800) == .infinity)
        #expect(DeterministicMath.exp(-800) == 0)
    }

    @Test func uniformIntStaysInRangeAndCoversIt() {
        var random = SplitMix64(seed: 3)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<7_000 {
            counts[random.uniformInt(below: 7)] += 1
        }
        #expect(counts.allSatisfy { $0 > 850 && $0 < 1_150 })
        #expect(random.uniformInt(below: 1) == 0)
    }

    @Test func samplerMeansMatchTheirParameters() {
        var random = SplitMix64(seed: 5)
        let n = 40_000
        var exponential = 0.0
        var geometric = 0.0
        var belowMedian = 0
        var logUniformBelowSqrt = 0
        for _ in 0..<n {
            exponential += random.exponential(mean: 250)
            let size = random.geometric(mean: 6)
            #expect(size >= 1)
            geometric += Double(size)
            if random.logNormal(median: 120, sigma: 0.7, clampedTo: 0 ... .infinity) < 120 { belowMedian += 1 }
            let value = random.logUniform(10, 1_000)
            #expect(value >= 10 && value <= 1_000)
            if value < 100 { logUniformBelowSqrt += 1 }
        }
        // Four standard errors: the exponential's is mean/√n, the geometric's √(m(m−1)/n).
        #expect(abs(exponential / Double(n) - 250) < 4 * 250 / Double(n).squareRoot())
        #expect(abs(geometric / Double(n) - 6) < 4 * (30.0 / Double(n)).squareRoot())
        #expect(abs(Double(belowMedian) / Double(n) - 0.5) < 0.01)
        #expect(abs(Double(logUniformBelowSqrt) / Double(n) - 0.5) < 0.01)
        #expect(random.geometric(mean: 1) == 1)
    }

    @Test func zipfSamplesFollowTheCumulativeDistribution() {
        let zipf = ZipfDistribution(count: 1_000, exponent: 1)
        // H(10)/H(1000) for exponent 1.
        let harmonic = { (n: Int) in (1...n).reduce(0.0) { $0 + 1 / Double($1) } }
        #expect(abs(zipf.probability(ofRankAtMost: 10) - harmonic(10) / harmonic(1_000)) < 1e-12)
        #expect(zipf.probability(ofRankAtMost: 1_000) == 1)
        var random = SplitMix64(seed: 9)
        let n = 30_000
        var head = 0
        for _ in 0..<n {
            let rank = zipf.sample(using: &random)
            #expect(rank >= 1 && rank <= 1_000)
            if rank <= 10 { head += 1 }
        }
        let p = zipf.probability(ofRankAtMost: 10)
        #expect(abs(Double(head) / Double(n) - p) < 4 * (p * (1 - p) / Double(n)).squareRoot())
        let uniform = ZipfDistribution(count: 4, exponent: 0)
        #expect(abs(uniform.probability(ofRankAtMost: 2) - 0.5) < 1e-15)
    }
}
