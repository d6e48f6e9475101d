import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// Schema 3 of `results.json`: the keys a real run writes are pinned, so a renamed or dropped
/// field is a deliberate schema change, and the file reads back to the same value.
@Suite struct ResultsSchemaTests {
    static func keys(_ object: Any?) -> Set<String> {
        Set((object as? [String: Any])?.keys.map { $0 } ?? [])
    }

    @Test func schemaThreeKeysArePinnedAndRoundTrip() throws {
        let results = try GoldenReportTests.goldenRun()
        #expect(results.schemaVersion == 3)
        let data = try ResultsJSON.encode(results)
        #expect(try ResultsJSON.decode(data) == results)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Self.keys(root) == ["schemaVersion", "environment", "settings", "strategies", "cases", "sweeps", "deviceProfile", "workloads"])
        #expect(Self.keys(root["settings"]).isSuperset(of: [
            "quick", "repetitions", "windowMilliseconds", "filters", "safetyFactor", "horizonFacts", "recommendation",
        ]))
        #expect(Self.keys((root["settings"] as? [String: Any])?["recommendation"]) == ["allowProbabilistic", "memoryBudgetBytes", "dropWeight"])
        #expect(Self.keys(root["deviceProfile"]) == [
            "workloads", "facts", "horizonSource", "sizingNote", "horizonIDs", "windowMilliseconds", "longestReplayMilliseconds",
            "spanMilliseconds", "relaunches", "peakPayloadsInWindow", "peakIdsPerSecond", "replayDelays", "wantedRetapDelays",
            "duplicatePayloadDelays", "safetyFactor", "sizing",
        ])
        #expect(Self.keys((root["deviceProfile"] as? [String: Any])?["sizing"]) == [
            "windowCapacity", "consumedCapacity", "retentionMilliseconds", "expectedRatePerSecond", "falsePositiveRate",
        ])
        let workload = try #require((root["workloads"] as? [[String: Any]])?.first)
        #expect(Self.keys(workload) == [
            "id", "description", "category", "tag", "events", "envelopes", "replays", "replaysWithinWindow",
            "longestReplayMilliseconds", "envelopesWithinLongestReplay",
        ])
        let strategy = try #require((root["strategies"] as? [[String: Any]])?.first)
        #expect(Self.keys(strategy) == ["layer", "id", "type", "guarantee", "reads"])
        #expect(Self.keys(strategy["guarantee"]).isSuperset(of: ["class", "forgetting"]))
        let cases = try #require(root["cases"] as? [[String: Any]])
        // Parameters equal to the run's sizing are left out; the case id says which were read.
        let pipeline = try #require(cases.first { $0["window"] != nil && $0["consumed"] != nil && $0["parameters"] == nil })
        #expect(Self.keys(pipeline) == ["case", "workload", "mode", "window", "consumed", "identity", "persistence", "correctness"])
        let correctness = pipeline["correctness"] as? [String: Any]
        #expect(Self.keys(correctness).isSuperset(of: ["counts", "matched"]))
        #expect((correctness?["counts"] as? [Int])?.count == 13)
        // Matched counts of zero are left out; every key written is a known one with a count above 0.
        let matchedKeys: Set<String> = ["newlyDropped", "newlyMissed", "recoveredNavigations", "newlyBlockedDuplicates"]
        for result in cases {
            guard let matched = (result["correctness"] as? [String: Any])?["matched"] as? [String: Any] else { continue }
            #expect(Self.keys(matched).isSubset(of: matchedKeys), "\(result["case"] ?? "")")
            #expect(matched.values.allSatisfy { ($0 as? Int).map { $0 > 0 } ?? false }, "\(result["case"] ?? "")")
        }
    }

    /// Timing keeps every repetition's sample and every latency batch (bucketed), so statistics
    /// can be derived again: the percentiles read back from the histogram are within a bucket.
    @Test func timingKeepsRawSamplesAndLatencyBatches() throws {
        let batches = (1...1_000).map { Double($0) / 10 }
        let histogram = LatencyHistogram(batches: batches)
        #expect(histogram.counts.reduce(0, +) == 1_000)
        let p50 = try #require(histogram.quantile(0.5))
        #expect(abs(p50 / 50 - 1) < 0.045)
        let p99 = try #require(histogram.quantile(0.99))
        #expect(abs(p99 / 99 - 1) < 0.045)
        #expect(LatencyHistogram(batches: []).quantile(0.5) == nil)
        let data = try JSONEncoder().encode(histogram)
        #expect(try JSONDecoder().decode(LatencyHistogram.self, from: data) == histogram)
    }
}
