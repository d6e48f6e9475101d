@testable import DedupeHarness
@testable import DedupeLifecycle
@testable import DedupeReports
import Foundation
import Testing

@Suite struct PolicyReportTests {
    static let policies: PolicyResults = {
        // A failure of the simulator here would be a bug the lifecycle tests name; keep this one small.
        (try? PolicyRun.run(seed: 42, scenarios: ["checkout-double-tap", "path-owned-twice"])) ?? PolicyResults(
            seed: 0, window: "", consumed: "", fetchMedianMilliseconds: 0, fetchP99Milliseconds: 0, fetchFailureRate: 0,
            checkoutMedianMilliseconds: 0, dwellMedianMilliseconds: 0, scenarios: [], rows: [], sweepScenario: nil, sweep: [])
    }()

    @Test func csvHasTheFailureColumnsThenTasks() {
        let table = PolicyReport.csv(Self.policies)
        #expect(table.header == [
            "scenario", "persistence", "variant", "intents", "pushes", "duplicate_screens", "lost_navigations",
            "reprocessed_envelopes", "wrong_screens", "repushed_after_leave", "overlapping_tasks", "tasks_started", "tasks_killed",
            "fetch_failures",
        ])
        #expect(table.rows.count == 2 * PolicyVariant.allCases.count)
        let row = table.rows.first { $0[0] == "checkout-double-tap" && $0[2] == "no-loading-guard" }
        let counts = Self.policies.rows.first { $0.scenario == "checkout-double-tap" && $0.variant == .noLoadingGuard }?.counts
        #expect(row?[8] == counts.map { String($0.wrongScreens) })
        #expect(row?[10] == counts.map { String($0.overlappingTasks) })
        #expect((counts?.wrongScreens ?? 0) > 0)
    }

    /// `policy-causes.csv`: per row of `policies.csv`, the cause counts of each failure column
    /// add up to that column, and each names its rule's category.
    @Test func causesCSVAddsUpToThePoliciesCSV() throws {
        let policies = try PolicyRun.run(seed: 42, scenarios: ["retap-after-window", "relaunch-mid-fetch", "checkout-double-tap"])
        let table = PolicyReport.causesCSV(policies)
        #expect(table.header == ["scenario", "persistence", "variant", "failure", "mechanism", "rule", "rule_category", "count"])
        let csv = PolicyReport.csv(policies)
        for row in csv.rows {
            for failure in LifecycleFailure.allCases {
                let column = try #require(PolicyReport.columns.firstIndex(of: failure.rawValue))
                let booked = table.rows.filter { $0[0] == row[0] && $0[1] == row[1] && $0[2] == row[2] && $0[3] == failure.rawValue }
                    .compactMap { Int($0[7]) }.reduce(0, +)
                #expect(String(booked) == row[column], "\(row[0]) \(row[1]) \(row[2]) \(failure.rawValue)")
            }
        }
        #expect(table.rows.contains { $0[2] == "published" && $0[5] == "unguarded-router-push" && $0[6] == "trade-off" })
        #expect(table.rows.contains { $0[1] == "memory" && $0[0] == "relaunch-mid-fetch" && $0[5] == "memory-persistence" })
        let markdown = PolicyReport.markdown(policies)
        #expect(markdown.contains("## What the published policy still lets through"))
        #expect(markdown.contains("failures nothing explains: **0**"))
        #expect(PolicyReport.plainText(policies).contains("published: remaining failures by cause (unexplained: 0)"))
    }

    @Test func markdownNamesEachSwitchCheck() {
        let markdown = PolicyReport.markdown(Self.policies)
        #expect(markdown.contains("| `no-loading-guard` | `checkout-double-tap` | `wrong_screens` | 0 |"))
        #expect(markdown.contains("Left out by the conversion"))
        #expect(markdown.contains("| `two-path-owners` | `path-owned-twice` | `duplicate_screens` | 0 |"))
        #expect(!markdown.contains("NOT SHOWN"))
        #expect(markdown.contains("## A kill at every step of a routed push"))
        #expect(markdown.contains("| default | `reserve-then-commit` |"))
        // No sweep without its scenario.
        #expect(!markdown.contains("Fetch latency"))
    }

    @Test func resultsWithoutPoliciesRenderAsBefore() throws {
        var results = RunResults(
            environment: EnvironmentInfo(
                toolchain: "t", operatingSystem: "o", cpuModel: "c", coreCount: 1, allocator: "a", seed: 1, gitCommit: "g",
                date: "d", buildConfiguration: .release, clockResolutionNanoseconds: 1, harnessOverheadNanosecondsPerEvent: 0),
            settings: RunSettings(quick: true, repetitions: 1, windowMilliseconds: 500, filters: [], traceFile: nil),
            cases: [], sweeps: [])
        let without = MarkdownReport.render(results)
        #expect(!without.contains("Router and NavigationStack policies"))
        #expect(PolicyReport.files(results, formats: Set(ReportFormat.allCases)).isEmpty)
        let json = try ResultsJSON.encode(results)
        #expect(!String(decoding: json, as: UTF8.self).contains("policies"))
        results.policies = Self.policies
        let report = MarkdownReport.render(results)
        #expect(report.contains("## Router and NavigationStack policies"))
        // report.md keeps the summary; the per-scenario failures are in policies.md only.
        #expect(!report.contains(PolicyReport.compactTableCaption))
        #expect(report.contains("Failures per scenario and the full matrix in [policies.md](policies.md)"))
        #expect(PolicyReport.markdown(Self.policies).contains("## Failures per scenario\n\n" + PolicyReport.compactTableCaption))
        let names = try ReportSet.files(results, formats: Set(ReportFormat.allCases)).map(\.name)
        #expect(names.contains("policies.csv") && names.contains("policies.md") && names.contains(PolicyReport.chartFileName))
        #expect(names.contains(PolicyReport.causesFileName))
        #expect(try ResultsJSON.decode(ResultsJSON.encode(results)) == results)
        // A variant this build does not know is refused by name.
        let unknown = String(decoding: try ResultsJSON.encode(results), as: UTF8.self)
            .replacing(#""variant":"published""#, with: #""variant":"no-such-guard""#, maxReplacements: 1)
        let known = PolicyVariant.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(throws: ResultsFileError.malformed("policies.rows[0].variant is 'no-such-guard', an unknown policy variant (expected \(known))")) {
            try ResultsJSON.decode(Data(unknown.utf8))
        }
    }
}
