import DedupeMeasurement
import DedupeWorkloads
import Foundation
import PushDedupe
import Testing
@testable import DedupeHarness

/// `--reference`: the timing ratios against another exact pair or none, recorded in the
/// settings, kept through results.json, while matched errors stay against the published code.
@Suite struct TimingReferenceTests {
    @Test(arguments: ["none", "published", "window=hash-deque", "consumed=set", "window=array-scan,consumed=set"])
    func textRoundTrips(text: String) throws {
        let reference = try #require(TimingReference(text: text))
        #expect(reference.text.map { TimingReference(text: $0) } ?? .published == reference)
    }

    @Test(arguments: ["", "window", "window=", "window=a,window=b", "set=x", "window=a;consumed=b", "none,window=a"])
    func malformedTextIsRefused(text: String) {
        #expect(TimingReference(text: text) == nil)
    }

    @Test func eachModeGetsTheLayersItUses() {
        let reference = TimingReference.strategies(window: "hash-deque", consumed: nil)
        #expect(reference.ids(.windowAlone)! == ("hash-deque", nil))
        #expect(reference.ids(.consumedAlone)! == (nil, "set"))
        #expect(reference.ids(.twoLayer)! == ("hash-deque", "set"))
        #expect(TimingReference.published.ids(.twoLayerGuarded)! == ("published-literal", "set"))
        #expect(TimingReference.none.ids(.twoLayer) == nil)
    }

    @Test func onlyExactStrategiesOfTheCatalogueAreAccepted() throws {
        let catalogue = StrategyCatalogue.standard
        let exactWindow = try #require(catalogue.windows.first { $0.guarantee.guaranteeClass == .exact && $0.id != "published-literal" })
        let inexactSet = try #require(catalogue.consumedSets.first { $0.guarantee.guaranteeClass != .exact })
        try TimingReference.strategies(window: exactWindow.id, consumed: "set").validate(in: catalogue)
        #expect(throws: MeasurementError.self) { try TimingReference.strategies(window: "no-such", consumed: nil).validate(in: catalogue) }
        #expect(throws: MeasurementError.self) { try TimingReference.strategies(window: nil, consumed: inexactSet.id).validate(in: catalogue) }
    }

    static func plan(_ reference: TimingReference) -> RunPlan {
        var plan = RunPlan(
            source: .trace(randomWorkload(seed: 8, events: 600), fileName: "hand.csv"), seed: 1, repetitions: 2,
            filter: RunFilter(windows: ["ring-buffer"], consumedSets: ["fifo-set"], modes: ["window-alone", "two-layer"]),
            measureTiming: true, measureMemory: false, runSweeps: false)
        plan.sizing = .tiny
        plan.allowDebugBuild = true
        plan.timingIsolation = .inProcess
        plan.forks = 2
        plan.timingReference = reference
        return plan
    }

    /// Against hash-deque / set: the ratios divide by those rows, the published rows are scored
    /// but not timed, matched errors still name the published rows, and results.json keeps it.
    @Test func ratiosAreAgainstTheChosenReferenceAndSurviveTheResultsFile() throws {
        let reference = TimingReference.strategies(window: "hash-deque", consumed: nil)
        let results = try BenchmarkRunner.run(Self.plan(reference)) { _ in }
        #expect(results.settings.timingReference == "window=hash-deque")
        let ringBuffer = try #require(results.cases.first { $0.mode == .windowAlone && $0.window == "ring-buffer" })
        let hashDeque = try #require(results.cases.first { $0.mode == .windowAlone && $0.window == "hash-deque" })
        let timing = try #require(ringBuffer.timing)
        #expect(timing.reference == hashDeque.id.text)
        #expect(timing.ratiosToReference == zip(timing.samplesNanosecondsPerEvent, hashDeque.timing!.samplesNanosecondsPerEvent).map { $0 / $1 })
        #expect(ringBuffer.correctness?.matched?.reference.contains("published-literal") == true)
        #expect(results.cases.filter { $0.window == "published-literal" }.allSatisfy { $0.timing == nil && $0.correctness != nil })
        let decoded = try JSONDecoder().decode(RunResults.self, from: JSONEncoder().encode(results))
        let decodedRing = try #require(decoded.cases.first { $0.id == ringBuffer.id })
        #expect(decodedRing.timing?.ratiosToReference == timing.ratiosToReference)
        #expect(decodedRing.timing?.reference == hashDeque.id.text)
    }

    @Test func noReferenceMeansNoRatiosAndNoReferenceTiming() throws {
        let results = try BenchmarkRunner.run(Self.plan(.none)) { _ in }
        #expect(results.settings.timingReference == "none")
        let timed = results.cases.filter { $0.timing != nil }
        #expect(!timed.isEmpty && timed.allSatisfy { $0.timing!.ratiosToReference.isEmpty && $0.timing!.reference == nil })
        #expect(results.cases.filter { $0.window == "published-literal" }.allSatisfy { $0.timing == nil })
        let decoded = try JSONDecoder().decode(RunResults.self, from: JSONEncoder().encode(results))
        #expect(decoded.cases.compactMap(\.timing).allSatisfy { $0.ratiosToReference.isEmpty })
    }
}
