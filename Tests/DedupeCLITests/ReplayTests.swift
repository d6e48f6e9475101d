@testable import DedupeHarness
import DedupeReports
import Foundation
import Testing

/// `replay` on `Fixtures/replay-small.csv`, against counts worked out by hand from the mode
/// definitions of the harness issue (window 500 ms, the reference strategies).
///
/// - e1 payload @0 (new): every mode shows item:1.
/// - e2 payload @5, same route (dup): the window suppresses it in `fingerprint-only` and the
///   two-layer modes, so e2 is never created; `envelope-only` gives it a fresh envelope and
///   shows item:1 again (a missed duplicate and a duplicate screen).
/// - e1 emit @100 (dup): the consumed set blocks it; `fingerprint-only` blocks it by route.
/// - e2 emit @150 (dup): skipped wherever e2 was never created; `envelope-only` blocks it.
/// - e1 emit @2000 (dup): the consumed set blocks it; `fingerprint-only` is outside the
///   window, so it shows item:1 on top of item:1 (a missed duplicate and a duplicate screen).
/// - e3 @2500 and e4 @3000 (new): shown in every mode; e4 is 1 s after item:1 was last seen.
@Suite struct ReplayTests {
    struct Expected {
        var falseDrops: Int
        var missed: Int
        var skipped: Int
        var duplicateScreens: Int
    }

    static let expected: [String: Expected] = [
        "fingerprint-only": Expected(falseDrops: 0, missed: 1, skipped: 1, duplicateScreens: 1),
        "envelope-only": Expected(falseDrops: 0, missed: 1, skipped: 0, duplicateScreens: 1),
        "two-layer": Expected(falseDrops: 0, missed: 0, skipped: 1, duplicateScreens: 0),
        "two-layer-guarded": Expected(falseDrops: 0, missed: 0, skipped: 1, duplicateScreens: 0),
    ]

    @Test
    func replayGivesHandComputedCounts() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try BinaryRunner.run([
            "replay", BinaryRunner.fixture("replay-small.csv").path, "--window-ms", "500", "--repetitions", "1",
            "--filter", "window=published-literal", "--filter", "consumed=set", "--format", "json", "--allow-debug", "--out", directory.path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let results = try ResultsJSON.decode(Data(contentsOf: directory.appendingPathComponent("results.json")))
        #expect(results.settings.traceFile == "replay-small.csv")
        for (mode, expected) in Self.expected {
            let result = try #require(results.cases.first { $0.mode.rawValue == mode && $0.choice.isBase && $0.correctness != nil }, "\(mode)")
            let c = try #require(result.correctness)
            #expect(c.newEvents == 3, "\(mode)")
            #expect(c.dupEvents == 4, "\(mode)")
            #expect(c.falseDrops == expected.falseDrops, "\(mode)")
            #expect(c.missedDuplicates == expected.missed, "\(mode)")
            #expect(c.skippedEmits == expected.skipped, "\(mode)")
            #expect(c.duplicateScreens == expected.duplicateScreens, "\(mode)")
            #expect(c.lostNavigations == 0, "\(mode)")
        }
    }

    /// `--decisions` writes one row per event each mode takes as input; the two-layer rows are
    /// the hand-worked ones above.
    @Test
    func replayWritesEveryDecision() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("decisions.csv")
        let outcome = try BinaryRunner.run([
            "replay", BinaryRunner.fixture("replay-small.csv").path, "--repetitions", "1",
            "--filter", "window=published-literal", "--filter", "consumed=set", "--filter", "mode=two-layer,window-alone",
            "--format", "json", "--allow-debug", "--out", directory.path, "--decisions", file.path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        let rows = try DecisionsCSV.parse(String(contentsOf: file, encoding: .utf8))
        let twoLayer = rows.filter { $0.caseID.hasPrefix("replay-small.csv/two-layer/published-literal(") && $0.caseID.hasSuffix("/minted/memory") }
        #expect(twoLayer.map(\.decision) == ["navigated", "window", "consumed", "skipped", "consumed", "navigated", "navigated"])
        #expect(twoLayer.map(\.event) == Array(1...7))
        #expect(twoLayer.allSatisfy { $0.caseID.contains("+set(") && $0.workload == "replay-small.csv" })
        #expect(rows.filter { $0.caseID.contains("/window-alone/") }.map(\.event) == [1, 2, 6, 7], "payloads only")
        // Every row names its case, so no (case, event) pair appears twice.
        #expect(Set(rows.map { "\($0.caseID)|\($0.event)" }).count == rows.count)
        let bad = try BinaryRunner.run([
            "replay", BinaryRunner.fixture("replay-small.csv").path, "--allow-debug", "--out", directory.path,
            "--decisions", directory.appendingPathComponent("missing/d.csv").path,
        ])
        #expect(bad.status == 2 && bad.error.contains("--decisions"))
    }
}
