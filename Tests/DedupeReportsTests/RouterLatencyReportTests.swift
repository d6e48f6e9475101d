@testable import DedupeHarness
import Testing
@testable import DedupeReports

@Suite struct RouterLatencyReportTests {
    @Test func theSweepIsATableAfterTheCausesAndAbsentWithoutOne() throws {
        var results = Fixtures.results()
        #expect(!MarkdownReport.render(results).contains("## Behind the router, by fetch latency"))
        results.routerLatencySweep = RouterLatencySweep(
            choice: "two-layer-guarded/hash-deque(window=500ms;reserve=4)+fifo-set(capacity=1750)/push-id/after-every-consume",
            workloads: ["async-completion-after-retap"],
            points: [
                .init(scale: 0.25, missed: 178, duplicates: 400, dropped: 6, wanted: 900),
                .init(scale: 4, missed: 35, duplicates: 400, dropped: 8, wanted: 900),
            ])
        let markdown = MarkdownReport.render(results)
        let section = try #require(markdown.firstRange(of: "## Behind the router, by fetch latency"))
        #expect(markdown.contains("| ×0.25 | 75.0 ms | 178/400 | 6/900 |"))
        #expect(markdown.contains("| ×4 | 1.20 s | 35/400 | 8/900 |"))
        let layers = try #require(markdown.firstRange(of: "## Per-layer comparison"))
        #expect(section.lowerBound < layers.lowerBound)
    }
}
