@testable import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// Schema 5 of `results.json`: the keys a real run writes are pinned, so a renamed or dropped
/// field is a deliberate schema change, and the file reads back to the same value.
@Suite struct ResultsSchemaTests {
    static func keys(_ object: Any?) -> Set<String> {
        Set((object as? [String: Any])?.keys.map { $0 } ?? [])
    }

    @Test func schemaFiveKeysArePinnedAndRoundTrip() throws {
        let results = try GoldenReportTests.goldenRun()
        #expect(results.schemaVersion == 5)
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
        // Parameters equal to the run's sizing are left out; the case id names the rest.
        let pipeline = try #require(cases.first {
            ($0["case"] as? String)?.contains("/two-layer/") == true && $0["timing"] == nil && $0["parameters"] == nil
        })
        #expect(Self.keys(pipeline) == ["case", "correctness"])
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

    /// Timing keeps every repetition's sample, and the four percentiles in one array.
    @Test func timingKeepsRawSamplesAndFourPercentiles() throws {
        let results = SyntheticResults.make()
        let root = try #require(try JSONSerialization.jsonObject(with: ResultsJSON.encode(results)) as? [String: Any])
        let cases = try #require(root["cases"] as? [[String: Any]])
        let timed = try #require(cases.first { $0["timing"] != nil })
        let timing = try #require(timed["timing"] as? [String: Any])
        #expect(Self.keys(timing).isSuperset(of: ["samplesNanosecondsPerEvent", "latencyNanoseconds"]))
        #expect(Self.keys(timing).isSubset(of: ["samplesNanosecondsPerEvent", "latencyNanoseconds", "timedEvents", "forks"]))
        let original = try #require(results.cases.first { $0.id.text == timed["case"] as? String }?.timing)
        #expect(timing["latencyNanoseconds"] as? [Double] == [
            original.latencyP50Nanoseconds, original.latencyP90Nanoseconds, original.latencyP99Nanoseconds,
            original.latencyP999Nanoseconds,
        ])
        let measured = try #require(cases.first { $0["memory"] != nil })
        #expect((measured["memory"] as? [Any])?.count == 9)
    }

    /// A case's fields come from its id alone, so an id that names no mode, the wrong number of
    /// layers, or identity and persistence on a mode without a consumed set is refused by
    /// position; a workload may hold a `/` (a trace's file name is the one outside name).
    @Test(arguments: [
        ("w/three-layer/a+b/minted/memory", "not WORKLOAD/MODE"),
        ("w/window-alone/hash-deque(window=500ms;reserve=4)+fifo-set(capacity=8)", "one strategy per layer"),
        ("w/window-alone/hash-deque(window=500ms;reserve=4)/minted/memory", "exactly when it uses a consumed set"),
        ("two-layer/hash-deque+fifo-set/minted/memory", "not WORKLOAD/MODE"),
    ])
    func caseIDsThatNameNoCaseAreRefused(id: String, words: String) throws {
        var results = try GoldenReportTests.goldenRun()
        results.cases = [results.cases[0]]
        let text = try #require(String(data: try ResultsJSON.encode(results), encoding: .utf8))
        let original = "\"case\":\"\(results.cases[0].id.text)\""
        #expect(text.contains(original))
        let edited = Data(text.replacingOccurrences(of: original, with: "\"case\":\"\(id)\"").utf8)
        let error = #expect(throws: ResultsFileError.self) { try ResultsJSON.decode(edited) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("cases[0]") && message.contains(words), "\(message)")
    }

    /// A sweep dimension is typed: one this build does not know is refused by its path and
    /// value, not read in and left out of every table and chart.
    @Test func anUnknownSweepDimensionIsRefusedByPath() throws {
        let results = SyntheticResults.make()
        let index = try #require(results.sweeps.firstIndex { $0.dimension == .windowLength })
        let text = try #require(String(data: try ResultsJSON.encode(results), encoding: .utf8))
        #expect(text.contains("\"dimension\":\"window-length\""))
        let edited = Data(text.replacingOccurrences(of: "\"dimension\":\"window-length\"", with: "\"dimension\":\"window-width\"").utf8)
        let error = #expect(throws: ResultsFileError.self) { try ResultsJSON.decode(edited) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.hasPrefix("sweeps[\(index)].dimension is 'window-width', an unknown dimension (expected window-live-set, "), "\(message)")
    }

    @Test func aWorkloadWithASlashReadsBack() throws {
        var results = try GoldenReportTests.goldenRun()
        for index in results.cases.indices { results.cases[index].workload = "traces/" + results.cases[index].workload }
        let file = try ResultsJSON.encode(results)
        let decoded = try ResultsJSON.decode(file)
        #expect(decoded.cases.map(\.id) == results.cases.map(\.id))
        #expect(try ResultsJSON.encode(decoded) == file)
    }
}

/// Fields typed by an enum refuse a value the enum does not have, naming the field and the value.
@Suite struct ResultsEnumFieldTests {
    @Test(arguments: [
        ("\"layer\":\"window\"", "\"layer\":\"windw\"", "strategies[0].layer", "windw"),
        ("\"buildConfiguration\":\"release\"", "\"buildConfiguration\":\"profile\"", "environment.buildConfiguration", "profile"),
    ])
    func anUnknownValueIsRefusedByPath(field: String, edited: String, path: String, value: String) throws {
        let text = try #require(String(data: try ResultsJSON.encode(SyntheticResults.make()), encoding: .utf8))
        #expect(text.contains(field))
        let file = Data(text.replacingOccurrences(of: field, with: edited).utf8)
        let error = #expect(throws: ResultsFileError.self) { try ResultsJSON.decode(file) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains(path) && message.contains("'\(value)'"), "\(message)")
    }
}
