@testable import DedupeDecision
@testable import DedupeHarness
import DedupeWorkloads
import Foundation
import PushDedupe
import Testing
@testable import DedupeReports

/// `report.html` without a browser: one self-contained file, every table of `report.md`, every
/// string from the data escaped, and the decision sample it shows.
@Suite struct HTMLReportTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Results whose names hold markup, and a hand-made decision sample.
    static func hostileResults() -> RunResults {
        Fixtures.results([
            Fixtures.pipeline("published-literal", "set", ns: 40, bytes: 4000, workload: "<b>w&x</b>"),
            Fixtures.pipeline("hash-deque", "set", ns: 20, bytes: 4000, workload: "<b>w&x</b>"),
            Fixtures.pipeline("hash-deque", "bloom", ns: 10, bytes: 500, falseDrops: 1, newlyDropped: 1,
                              workload: "<b>w&x</b>", guarantee: .mayDrop(forgetting: .never)),
        ])
    }

    static func page(_ results: RunResults, decisions: DecisionDiffData? = nil) throws -> (html: String, markdown: String) {
        let files = try ReportSet.files(results, formats: [.md], decisions: decisions)
        func text(_ name: String) throws -> String {
            try #require(files.first { $0.name == name }.map { String(decoding: $0.data, as: UTF8.self) })
        }
        return (try text(HTMLReport.fileName), try text("report.md"))
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func pageIsSelfContained() throws {
        let (html, _) = try Self.page(Self.hostileResults())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"))
        for fetched in ["src=", "<link", "@import", "url(", "href=\"http", "href=\"//", "<iframe", "<img"] {
            #expect(!html.contains(fetched), "the page loads something: \(fetched)")
        }
        #expect(Self.count("<script>", in: html) == 1 && Self.count("<style>", in: html) == 1)
        // Charts inline, each once, without their XML declaration.
        #expect(!html.contains("<?xml"))
        #expect(Self.count("<figure class=\"chart\"", in: html) >= 3)
    }

    @Test func everyMarkdownTableIsAnHTMLTable() throws {
        let (html, markdown) = try Self.page(Fixtures.results())
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let markdownTables = zip(lines, lines.dropFirst()).filter { $0.0.hasPrefix("|") && MarkdownHTML.isDelimiterRow(String($0.1)) }.count
        #expect(markdownTables >= 3)
        // Plus the timing samples; the diff table only with decisions.
        #expect(Self.count("<table class=\"data\">", in: html) == markdownTables + 1)
        let headings = lines.filter { $0.hasPrefix("## ") }.count
        #expect(Self.count("<h2", in: html) == headings + 2)
    }

    @Test func stringsFromTheDataAreEscaped() throws {
        let (html, _) = try Self.page(Self.hostileResults())
        #expect(!html.contains("<b>w&x</b>"))
        #expect(html.contains("&lt;b&gt;w&amp;x&lt;/b&gt;"))
        #expect(!html.contains("a<b&c"), "a sweep's strategy name, in a chart")
        // A name in the embedded decision data cannot end its script element.
        let hostile = DecisionDiffData(cases: ["</script><b>x", "y&z"], workloads: [DecisionDiffData.WorkloadDiff(
            id: "<i>w", events: 1, durationMilliseconds: 1, pairTotals: [1], cut: false,
            rows: [DecisionDiffData.Row(event: 1, timeMilliseconds: 0, kind: "p", truth: "d", decisions: "NC")])])
        let (page, _) = try Self.page(Self.hostileResults(), decisions: hostile)
        #expect(Self.count("</script>", in: page) == 2 && Self.count("<script", in: page) == 2)
        #expect(!page.contains("<b>x") && !page.contains("<i>w") && page.contains("&lt;/script&gt;&lt;b&gt;x"))
    }

    @Test func markdownSubsetConvertsAndEscapes() {
        let converter = MarkdownHTML { _, _ in nil }
        #expect(MarkdownHTML.inline("`` a`b `` and **bold** *em* _em_") == "<code>a`b</code> and <strong>bold</strong> <em>em</em> <em>em</em>")
        #expect(MarkdownHTML.inline("\\<script\\> & [csv](a.csv) [x](https://example.com)") == "&lt;script&gt; &amp; <a href=\"a.csv\">csv</a> x")
        #expect(MarkdownHTML.inline("snake_case_name") == "snake_case_name")
        #expect(MarkdownHTML.tableCells("| `a\\|b` | c |") == ["`a|b`", "c"])
        let html = converter.render("# T\n\n| A | B |\n| --- | ---: |\n| `x` | 3 |\n\n- one\n- two\n\n> [!WARNING]\n> careful\n").html
        #expect(html.contains("<h1 id=\"t\">T</h1>"))
        #expect(html.contains("<th>A</th><th class=\"num\">B</th>"))
        #expect(html.contains("<tr><td><code>x</code></td><td class=\"num\">3</td></tr>"))
        #expect(html.contains("<ul>\n<li>one</li>\n<li>two</li>\n</ul>"))
        #expect(html.contains("<blockquote class=\"callout warning\">\n<p>careful</p>\n</blockquote>"))
    }

    @Test func sameResultsGiveTheSameBytes() throws {
        let decisions = try Self.sample()
        #expect(try Self.page(Fixtures.results(), decisions: decisions).html == Self.page(Fixtures.results(), decisions: decisions).html)
    }

    // MARK: Decisions

    /// A workload of `count` payloads, alternately new and duplicate, 10 ms apart.
    static func workload(_ count: Int) -> Workload {
        var events: [WorkloadEvent] = []
        for index in 0..<count {
            let truth: Truth = index % 2 == 0 ? .new : .dup
            let time = Timestamp(nanoseconds: Int64(index) * 10_000_000)
            events.append(WorkloadEvent(
                time: time, kind: .payload, envelope: EnvelopeID(high: 1, low: UInt64(index)),
                fingerprint: RouteFingerprint(route: "item:1"), route: 0, source: 0, truth: truth))
        }
        return Workload(name: "w", summary: "", routes: ["item:1"], sources: ["tap"], events: events)
    }

    static func caseID(_ window: String) -> CaseID {
        CaseID(workload: "w", choice: StrategyChoice(
            mode: .twoLayer, window: LayerKey(id: window, reads: [], Fixtures.parameters),
            consumed: LayerKey(id: "set", reads: [], Fixtures.parameters), identity: .minted, persistence: .memory))
    }

    /// Case `a` navigates everything, `b` drops every duplicate by its consumed set, `c` drops
    /// every fourth event by its window.
    static func sample(events: Int = 8) throws -> DecisionDiffData {
        let choices = ["a", "b", "c"].map { caseID($0).choice.text }
        let sink = DecisionSample(cases: choices, workloads: ["w"])
        let workload = workload(events)
        let decisions: [[CaseDecision]] = [
            Array(repeating: .navigated, count: events),
            (0..<events).map { $0 % 2 == 1 ? .suppressedByConsumedSet : .navigated },
            (0..<events).map { $0 % 4 == 3 ? .suppressedByWindow : .navigated },
        ]
        for (choice, list) in zip(["a", "b", "c"], decisions) {
            try sink.write(CaseDecisions(id: caseID(choice), workload: workload, decisions: list.map(\.rawValue)))
        }
        return sink.data()
    }

    @Test func theSampleKeepsTheEventsWhereTwoCasesDiffer() throws {
        let data = try Self.sample()
        let workload = try #require(data.workloads.first)
        #expect(data.workloads.count == 1 && workload.events == 8 && !workload.cut)
        // a–b differ on the 4 duplicates, a–c on events 4 and 8, b–c on events 2 and 6.
        #expect(workload.pairTotals == [4, 2, 2])
        #expect(workload.rows.map(\.event) == [2, 4, 6, 8])
        #expect(workload.rows[0] == DecisionDiffData.Row(event: 2, timeMilliseconds: 10, kind: "p", truth: "d", decisions: "NCN"))
        #expect(workload.rows[1].decisions == "NCW")
        // The page opens on the pair with the most differences it keeps, and says how many.
        let html = HTMLReport.diffSection(data, recommendation: Recommendation.make(from: Fixtures.results()))
        #expect(html.contains("data-expected-marks=\"4\""))
        #expect(html.contains("4 of 4 event(s) where the two differ"))
        #expect(!html.contains("class=\"cut\""))
    }

    @Test func theSampleIsBoundedAndSaysSo() throws {
        let events = 2 * DecisionDiffData.eventBound + 10
        let data = try Self.sample(events: events)
        let workload = try #require(data.workloads.first)
        #expect(workload.rows.count == DecisionDiffData.eventBound && workload.cut)
        #expect(workload.pairTotals[0] == events / 2)
        let html = HTMLReport.diffSection(data, recommendation: Recommendation.make(from: Fixtures.results()))
        #expect(html.contains("\(DecisionDiffData.eventBound) of \(events / 2) event(s)"))
        #expect(html.contains("class=\"cut\""))
        // What the page's script reads: rows as arrays, the bound, every pair's count.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(HTMLReport.json(data).utf8)) as? [String: Any])
        #expect(json["bound"] as? Int == DecisionDiffData.eventBound)
        let first = try #require((json["workloads"] as? [[String: Any]])?.first)
        #expect(first["cut"] as? Bool == true && (first["pairTotals"] as? [Int])?.first == events / 2)
        let row = try #require((first["rows"] as? [[Any]])?.first)
        #expect(row.count == 5 && row[0] as? Int == 2 && row[4] as? String == "NCN")
    }

    @Test func withoutDecisionsTheDiffViewSaysWhy() throws {
        let (html, _) = try Self.page(Fixtures.results())
        #expect(html.contains("No decisions were sampled for this page"))
        #expect(!html.contains("id=\"decision-data\""))
    }
}
