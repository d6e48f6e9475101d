@testable import DedupeHarness
import DedupeReports
import Foundation
import Testing

@Suite struct PolicyReportTests {
    static let policies: PolicyResults = {
        // A failure of the simulator here would be a bug the harness tests name; keep this one small.
        (try? PolicyRun.run(seed: 42, scenarios: ["checkout-double-tap", "path-owned-twice"])) ?? PolicyResults(
            seed: 0, window: "", consumed: "", fetchMedianMilliseconds: 0, fetchP99Milliseconds: 0, fetchFailureRate: 0,
            checkoutMedianMilliseconds: 0, dwellMedianMilliseconds: 0, scenarios: [], rows: [], sweepScenario: nil, sweep: [])
    }()

    @Test func csvHasTheIssueColumnsThenFetchFailures() {
        let table = PolicyReport.csv(Self.policies)
        #expect(table.header == [
            "scenario", "variant", "intents", "pushes", "duplicate_screens", "lost_navigations", "reprocessed_envelopes",
            "wrong_screens", "repushed_after_leave", "tasks_started", "fetch_failures",
        ])
        #expect(table.rows.count == 2 * PolicyVariant.allCases.count)
        let row = table.rows.first { $0[0] == "checkout-double-tap" && $0[1] == "no-loading-guard" }
        let counts = Self.policies.rows.first { $0.scenario == "checkout-double-tap" && $0.variant == "no-loading-guard" }?.counts
        #expect(row?[7] == counts.map { String($0.wrongScreens) })
        #expect((counts?.wrongScreens ?? 0) > 0)
    }

    @Test func markdownNamesEachSwitchCheck() {
        let markdown = PolicyReport.markdown(Self.policies)
        #expect(markdown.contains("| `no-loading-guard` | `checkout-double-tap` | `wrong_screens` | 0 |"))
        #expect(markdown.contains("| `two-path-owners` | `path-owned-twice` | `duplicate_screens` | 0 |"))
        #expect(!markdown.contains("NOT SHOWN"))
        // No sweep without its scenario.
        #expect(!markdown.contains("Fetch latency"))
    }

    @Test func resultsWithoutPoliciesRenderAsBefore() throws {
        var results = RunResults(
            environment: EnvironmentInfo(
                toolchain: "t", operatingSystem: "o", cpuModel: "c", coreCount: 1, allocator: "a", seed: 1, gitCommit: "g",
                date: "d", buildConfiguration: "release", clockResolutionNanoseconds: 1, harnessOverheadNanosecondsPerEvent: 0),
            settings: RunSettings(quick: true, repetitions: 1, windowMilliseconds: 500, filters: [], traceFile: nil),
            cases: [], sweeps: [])
        let without = MarkdownReport.render(results)
        #expect(!without.contains("Router and NavigationStack policies"))
        #expect(PolicyReport.files(results, formats: Set(ReportFormat.allCases)).isEmpty)
        let json = try ResultsJSON.encode(results)
        #expect(!String(decoding: json, as: UTF8.self).contains("policies"))
        results.policies = Self.policies
        #expect(MarkdownReport.render(results).contains("## Router and NavigationStack policies"))
        let names = try ReportSet.files(results, formats: Set(ReportFormat.allCases)).map(\.name)
        #expect(names.contains("policies.csv") && names.contains("policies.md") && names.contains(PolicyReport.chartFileName))
        #expect(try ResultsJSON.decode(ResultsJSON.encode(results)) == results)
    }
}
