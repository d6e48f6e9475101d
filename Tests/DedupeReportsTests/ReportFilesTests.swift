@testable import DedupeHarness
import DedupeLifecycle
import Foundation
import Testing
@testable import DedupeReports
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct ReportFilesTests {
    final class ParseErrors: NSObject, XMLParserDelegate {
        var error: Error?
        var elements = 0
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) { error = parseError }
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            elements += 1
        }
    }

    static func isWellFormed(_ svg: String) -> Bool {
        let parser = XMLParser(data: Data(svg.utf8))
        let delegate = ParseErrors()
        parser.delegate = delegate
        return parser.parse() && delegate.error == nil && delegate.elements > 1
    }

    @Test func everyChartIsWellFormedXMLWithEscapedText() {
        let charts = ChartReport.charts(Fixtures.results())
        #expect(charts.count == 10)
        for chart in charts {
            let svg = chart.chart.svg()
            #expect(Self.isWellFormed(svg), "\(chart.fileName)")
            #expect(svg.contains(chart.chart.xLabel.components(separatedBy: " (").first!))
        }
        let live = charts[1].chart.svg()
        #expect(live.contains("a&lt;b&amp;c"))
        #expect(live.contains("log scale"))
    }

    @Test func theMalformedProbeIsRejected() {
        #expect(!Self.isWellFormed("<svg><text>a<b</text></svg>"))
    }

    @Test func seriesAreDistinguishableWithoutColour() {
        let series = (0..<4).map { LineChart.Series(name: "s\($0)", points: [(1, 1), (10, Double($0 + 2))]) }
        let svg = LineChart(title: "t", xLabel: "x (ms)", yLabel: "y", logX: false, logY: false, series: series).svg()
        #expect(Self.isWellFormed(svg))
        let dashes = Set(svg.components(separatedBy: "stroke-dasharray=\"").dropFirst().map { $0.prefix { $0 != "\"" } })
        #expect(dashes.count == 3, "series 0 is solid, 1–3 dashed differently")
        for shape in ["<circle", "<rect x", "<polygon"] { #expect(svg.contains(shape)) }
    }

    @Test func logAxesDropNonPositivePointsInsteadOfBreaking() {
        let chart = LineChart(
            title: "t", xLabel: "x", yLabel: "y", logX: true, logY: true,
            series: [LineChart.Series(name: "s", points: [(0, 1), (10, 0), (100, 5), (.nan, 2)])])
        let svg = chart.svg()
        #expect(Self.isWellFormed(svg))
        #expect(!svg.contains("nan"))
        let empty = LineChart(title: "t", xLabel: "x", yLabel: "y", logX: true, logY: true, series: []).svg()
        #expect(Self.isWellFormed(empty) && empty.contains("no data"))
    }

    @Test func jsonIsCompactSortedAndRoundTrips() throws {
        let results = Fixtures.results()
        let data = try ResultsJSON.encode(results)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\"cases\":[{\"case\":\"w/two-layer/published-literal(window=500ms)+set(capacity=1024)/minted/memory\""))
        #expect(!text.dropLast().contains("\n"))
        #expect(try ResultsJSON.decode(data) == results)
        // Metadata once per strategy, not per case.
        #expect(text.components(separatedBy: "\"guarantee\"").count - 1 == results.strategies.count)
        #expect(throws: ResultsFileError.unsupportedSchema(6)) {
            try ResultsJSON.decode(Data(text.replacingOccurrences(of: "\"schemaVersion\":5", with: "\"schemaVersion\":6").utf8))
        }
        // An older schema gets one message saying what to do.
        do {
            _ = try ResultsJSON.decode(Data(text.replacingOccurrences(of: "\"schemaVersion\":5", with: "\"schemaVersion\":4").utf8))
            Issue.record("a schema-4 file was read")
        } catch {
            #expect(error == .unsupportedSchema(4))
            #expect(error.description.contains("re-run the benchmark") && !error.description.contains("\n"))
        }
        /// Why `data` was refused, or `nil` when it was read.
        func refusal(_ data: Data) -> String? {
            do {
                _ = try ResultsJSON.decode(data)
                return nil
            } catch {
                return error.description
            }
        }
        let unknownMode = refusal(Data(text.replacingOccurrences(of: "\"w/two-layer/", with: "\"w/three-layer/").utf8))
        #expect(unknownMode?.contains("MODE") == true && unknownMode?.contains("three-layer") == true, "\(unknownMode ?? "read")")
        // A case id that does not match its fields, or appears twice, is refused.
        let mismatch = refusal(Data(text.replacingOccurrences(
            of: "+set(capacity=1024)/minted/memory\"", with: "+set(capacity=1)/minted/memory\"").utf8))
        #expect(mismatch?.contains("does not match its fields") == true, "\(mismatch ?? "read")")
        var twice = results
        twice.cases.append(twice.cases[0])
        let duplicated = refusal(try ResultsJSON.encode(twice))
        #expect(duplicated?.contains("appears twice") == true, "\(duplicated ?? "read")")
        #expect(throws: ResultsFileError.self) { try ResultsJSON.decode(Data("[]".utf8)) }
    }

    @Test func failedPublicationLeavesThePreviousReportsAndNoStaging() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("out")
        try DirectoryPublication.publish([("a.csv", Data("old".utf8))], to: directory)
        #expect(throws: PublicationError.self) {
            try DirectoryPublication.publish([("a.csv", Data("new".utf8)), ("missing/b.csv", Data("new".utf8))], to: directory)
        }
        #expect(try String(contentsOf: directory.appendingPathComponent("a.csv"), encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["out"])
    }

    @Test func fileNamesListEveryFileOfEveryFormat() throws {
        // With policy results, so their files are listed too.
        var results = Fixtures.results()
        results.policies = try PolicyRun.run(seed: 1, scenarios: ["button-double-tap"])
        let all = try ReportSet.files(results, formats: Set(ReportFormat.allCases)).map(\.name)
        #expect(Set(all) == ReportSet.fileNames)
    }

    @Test func formatsSelectTheFiles() throws {
        let names = try ReportSet.files(Fixtures.results(), formats: [.md]).map(\.name)
        #expect(names == ["headline.md", "report.md", "report.html"])
        let markdown = try ReportSet.files(Fixtures.results(), formats: [.md]).first { $0.name == "report.md" }!.data
        #expect(String(decoding: markdown, as: UTF8.self).contains("Charts were not written"))
        let all = try ReportSet.files(Fixtures.results(), formats: Set(ReportFormat.allCases)).map(\.name)
        #expect(all.first == "results.json" && all.last == "report.html")
    }
}
