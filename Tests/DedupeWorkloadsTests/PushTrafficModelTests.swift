import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct PushTrafficModelTests {
    /// Only first intents: no re-taps and no reordering, so every `new` event is one arrival of
    /// the on-off process.
    static var arrivalsOnly: PushTrafficModel.Parameters {
        var parameters = PushTrafficModel.Parameters()
        parameters.retapProbability = 0
        parameters.reorderProbability = 0
        return parameters
    }

    @Test func defaultsAndPresetsAreValid() throws {
        try PushTrafficModel.Parameters().validate()
        #expect(PushTrafficModel.Parameters().expectedDuplicateRatio > 0.2)
    }

    @Test func invalidParametersThrowConfigurationErrors() {
        var parameters = PushTrafficModel.Parameters()
        parameters.burstRate = 0
        #expect(throws: ConfigurationError.self) { try PushTrafficModel(parameters: parameters) }
        parameters = PushTrafficModel.Parameters()
        parameters.retapProbability = 1.5
        #expect { try PushTrafficModel(parameters: parameters) } throws: { error in
            (error as? ConfigurationError)?.parameter == "retapProbability"
        }
        parameters = PushTrafficModel.Parameters()
        parameters.kindMix = [1, 0]
        #expect(throws: ConfigurationError.self) { try PushTrafficModel(parameters: parameters) }
        parameters = PushTrafficModel.Parameters()
        parameters.meanBurstSize = .nan
        #expect(throws: ConfigurationError.self) { try PushTrafficModel(parameters: parameters) }
    }

    @Test func sameSeedSameBytesDifferentSeedDifferentBytes() throws {
        let model = try PushTrafficModel()
        let first = TraceWriter.encode(model.workload(name: "m", summary: "s", seed: 77, intents: 2_000))
        let again = TraceWriter.encode(model.workload(name: "m", summary: "s", seed: 77, intents: 2_000))
        let other = TraceWriter.encode(model.workload(name: "m", summary: "s", seed: 78, intents: 2_000))
        #expect(first == again)
        #expect(first != other)
    }

    @Test func generatedWorkloadsAreConsistentAndLabelledByTheTruthRule() throws {
        var parameters = PushTrafficModel.Parameters()
        parameters.reorderProbability = 0.5
        parameters.samePayloadProbability = 0.5
        let workload = try PushTrafficModel(parameters: parameters).workload(name: "m", summary: "", seed: 4, intents: 3_000)
        #expect(workload.firstInconsistency() == nil)
        // An emit always follows its envelope's payload, so it is never an intent's first event.
        #expect(workload.events.allSatisfy { $0.kind == .payload || $0.truth == .dup })
        // Re-taps are intents of their own.
        #expect(workload.events.allSatisfy { workload.source(of: $0) != "retap" || $0.truth == .new })
        // Reordering does happen: some second-path copies are processed first and so are `new`.
        let copiesFirst = workload.events.filter { workload.source(of: $0) == "foreground" && $0.truth == .new }.count
        #expect(copiesFirst > 10)
    }

    @Test func duplicateRatioMatchesTheParameters() throws {
        let parameters = PushTrafficModel.Parameters()
        let workload = try PushTrafficModel(parameters: parameters).workload(name: "m", summary: "", seed: 21, intents: 20_000)
        let ratio = Double(workload.count(.dup)) / Double(workload.events.count)
        #expect(abs(ratio - parameters.expectedDuplicateRatio) < 0.01)
        let perIntent = Double(workload.events.count) / 20_000
        #expect(abs(perIntent - parameters.expectedEventsPerIntent) < 0.03)
    }

    @Test func arrivalsAreBurstyAsConfigured() throws {
        let parameters = Self.arrivalsOnly
        let workload = try PushTrafficModel(parameters: parameters).workload(name: "m", summary: "", seed: 8, intents: 20_000)
        let arrivals = workload.events.filter { $0.truth == .new }.map { Double($0.time.nanoseconds) / 1e6 }
        #expect(arrivals.count == 20_000)
        let gaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }
        let m = parameters.meanBurstSize
        let meanGap = parameters.meanQuietGap.milliseconds
        let interArrival = 1_000 / parameters.burstRate

        // A gap over 5 s is (almost only) a quiet gap: probability (1/m)·e^(−5 s / gap).
        let expectedLong = (1 / m) * DeterministicMath.exp(-5_000 / meanGap) + (1 - 1 / m) * DeterministicMath.exp(-5_000 / interArrival)
        let long = Double(gaps.filter { $0 > 5_000 }.count) / Double(gaps.count)
        #expect(abs(long - expectedLong) < 0.015)

        // Inside bursts, arrivals are Poisson at the burst rate.
        let short = gaps.filter { $0 < 2_000 }
        #expect(abs(short.reduce(0, +) / Double(short.count) - interArrival) < 0.1 * interArrival)

        // Share of time spent inside bursts.
        let burstTime = short.reduce(0, +)
        let share = burstTime / (arrivals.last! - arrivals.first!)
        #expect(abs(share - parameters.expectedBurstTimeShare) < 0.15 * parameters.expectedBurstTimeShare)

        // Index of dispersion of counts per 10 s: about 1 for Poisson, far above for bursts.
        #expect(indexOfDispersion(arrivals, bin: 10_000) > 3)
        var poisson = parameters
        poisson.meanBurstSize = 1
        let flat = try PushTrafficModel(parameters: poisson).workload(name: "p", summary: "", seed: 8, intents: 5_000)
        let flatArrivals = flat.events.filter { $0.truth == .new }.map { Double($0.time.nanoseconds) / 1e6 }
        let flatDispersion = indexOfDispersion(flatArrivals, bin: 10_000)
        #expect(flatDispersion > 0.8 && flatDispersion < 1.25)
    }

    @Test func popularityFollowsZipf() throws {
        let parameters = Self.arrivalsOnly
        let workload = try PushTrafficModel(parameters: parameters).workload(name: "m", summary: "", seed: 12, intents: 20_000)
        let itemIDs = workload.events.filter { $0.truth == .new }.compactMap { event -> Int? in
            let route = workload.route(of: event)
            return route.hasPrefix("item:") ? Int(route.dropFirst(5)) : nil
        }
        let kindShare = Double(itemIDs.count) / 20_000
        #expect(abs(kindShare - 0.6) < 0.02)
        let zipf = ZipfDistribution(count: parameters.catalogueSizes[0], exponent: parameters.zipfExponent)
        let p = zipf.probability(ofRankAtMost: 10)
        let head = Double(itemIDs.filter { $0 <= 10 }.count) / Double(itemIDs.count)
        #expect(abs(head - p) < 4 * (p * (1 - p) / Double(itemIDs.count)).squareRoot())
    }

    private func indexOfDispersion(_ times: [Double], bin: Double) -> Double {
        guard let first = times.first, let last = times.last else { return 0 }
        var counts = [Double](repeating: 0, count: Int((last - first) / bin) + 1)
        for time in times {
            counts[Int((time - first) / bin)] += 1
        }
        let mean = counts.reduce(0, +) / Double(counts.count)
        let variance = counts.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(counts.count - 1)
        return variance / mean
    }
}

/// Settings that pass a naive range check but once trapped the generator.
@Suite struct PushTrafficModelLimitTests {
    @Test func extremeRatesAndSizesAreRejected() {
        for (field, parameters) in [
            ("burstRate", { var p = PushTrafficModel.Parameters(); p.burstRate = 1e-12; return p }()),
            ("meanBurstSize", { var p = PushTrafficModel.Parameters(); p.meanBurstSize = 1e17; return p }()),
            ("meanQuietGap", { var p = PushTrafficModel.Parameters(); p.meanQuietGap = .seconds(1 << 40); return p }()),
            ("reemitDelay", { var p = PushTrafficModel.Parameters(); p.reemitDelay = .milliseconds(10) ... .seconds(1 << 40); return p }()),
        ] {
            #expect { try PushTrafficModel(parameters: parameters) } throws: { ($0 as? ConfigurationError)?.parameter == field }
        }
    }

    /// The most extreme accepted values generate without trapping, even when a heavy-tailed delay
    /// saturates the clock.
    @Test func extremeAcceptedValuesGenerate() throws {
        var parameters = PushTrafficModel.Parameters()
        parameters.burstRate = 1e-3
        parameters.meanQuietGap = .seconds(86_400)
        parameters.retapSigma = 1_000
        parameters.retapProbability = 1
        let workload = try PushTrafficModel(parameters: parameters).workload(name: "edge", summary: "", seed: 3, intents: 200)
        #expect(workload.firstInconsistency() == nil)
        #expect(workload.events.count >= 200)
    }
}

@Suite struct SweepWorkloadLimitTests {
    @Test func longWindowsAreRejectedOrClamped() {
        let parameters = SweepParameters(liveFingerprints: 1, duplicateRatio: 0.5, events: 1_000, window: .seconds(1 << 40))
        #expect { try parameters.validate() } throws: { ($0 as? ConfigurationError)?.parameter == "window" }
        let workload = SweepWorkload.make(parameters, seed: 1)
        #expect(workload.events.count == 1_000)
        #expect(workload.firstInconsistency() == nil)
    }
}
