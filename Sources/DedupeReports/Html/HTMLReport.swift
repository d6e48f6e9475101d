import DedupeDecision
import DedupeHarness
import Foundation

/// `report.html`: `report.md` as one self-contained page, for a person to look rather than read.
///
/// Every table of the Markdown, rendered from the same text (``MarkdownHTML``), so a table added
/// to `report.md` appears here too; the charts inline; each sampled case's timing samples by fork;
/// and the decision diff view. The tables are plain HTML, so the page reads without its script;
/// the script sorts and filters them and drives the diff view. Nothing is fetched: the page's
/// Content-Security-Policy allows no source at all, only its own inline style and script.
/// The same results give the same bytes, apart from the timing figures in them.
package enum HTMLReport {
    package static let fileName = "report.html"

    /// The cases the diff view and the timing plots show, by choice: the pick, the runner-up, the
    /// next two pipelines of the ranking, the published code as it ships, and the pick behind the
    /// shipped router.
    package static func sampledChoices(_ recommendation: Recommendation) -> [String] {
        var choices: [StrategyChoice] = []
        func add(_ choice: StrategyChoice?) {
            if let choice, !choices.contains(choice) { choices.append(choice) }
        }
        add(recommendation.winner?.choice)
        add(recommendation.runnerUp?.choice)
        for assessment in recommendation.assessments where choices.count < 4 { add(assessment.candidate.choice) }
        add(recommendation.published()?.choice)
        add(recommendation.winner.flatMap(recommendation.withRouter)?.choice)
        return choices.map(\.text)
    }

    /// Renders the page from the Markdown report (rendered with every chart), the charts' SVG by
    /// file name, and the sampled decisions (`nil` when the run sampled none).
    ///
    /// - Complexity: O(size of the Markdown and the charts + sampled events + timing samples).
    package static func render(
        _ results: RunResults, markdown: String, charts: [String: String], recommendation: Recommendation,
        decisions: DecisionDiffData?
    ) -> String {
        var inlined: Set<String> = []
        let converter = MarkdownHTML { alt, source in
            let id = "chart-" + HTMLText.slug(source)
            if inlined.contains(source) {
                return "<p class=\"note\"><a href=\"#\(id)\">\(HTMLText.escaped(alt))</a> (shown above)</p>\n"
            }
            guard let svg = charts[source] else { return nil }
            inlined.insert(source)
            return "<figure class=\"chart\" id=\"\(id)\">\n" + inlineSVG(svg)
                + "<figcaption>\(HTMLText.escaped(alt)) (<a href=\"\(HTMLText.escaped(source))\">\(HTMLText.escaped(source))</a>)</figcaption>\n</figure>\n"
        }
        let report = converter.render(markdown)
        let choices = decisions?.cases ?? sampledChoices(recommendation)
        var body = report.html
        let filters = filterForm(results)
        if let heading = body.range(of: "</h1>\n") {
            body.insert(contentsOf: filters, at: heading.upperBound)
        } else {
            body = filters + body
        }
        body += distributionsSection(results, choices: choices)
        body += diffSection(decisions, recommendation: recommendation)
        let sections = report.sections + [("Timing samples", "timing-samples"), ("Decision diff", "decision-diff")]
        let toc = "<nav class=\"toc\" aria-label=\"Sections\"><strong>Sections</strong>\n<ol>\n"
            + sections.map { "<li><a href=\"#\($0.id)\">\(HTMLText.escaped($0.title))</a></li>\n" }.joined() + "</ol>\n</nav>\n"
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="dedupe-bench">
        <title>PushDedupe Bench report</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        <div class="layout">
        \(toc)<main>
        \(body)</main>
        </div>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    /// A chart file's SVG as an element of the page: without its XML declaration.
    static func inlineSVG(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.range(of: "?>\n") else { return svg }
        return String(svg[end.upperBound...])
    }

    /// The filter bar: workload, layer and guarantee; hidden until the script shows it, since
    /// without the script it does nothing.
    static func filterForm(_ results: RunResults) -> String {
        var workloads: [String] = []
        for result in results.cases where !workloads.contains(result.workload) { workloads.append(result.workload) }
        var guarantees: [String] = []
        for info in results.strategies {
            guard let text = info.guarantee?.text.split(separator: " ").first.map(String.init), !guarantees.contains(text) else { continue }
            guarantees.append(text)
        }
        func select(_ name: String, _ label: String, _ options: [(value: String, text: String)]) -> String {
            "<label>\(label) <select name=\"\(name)\"><option value=\"\">all</option>"
                + options.map { "<option value=\"\(HTMLText.escaped($0.value))\">\(HTMLText.escaped($0.text))</option>" }.joined()
                + "</select></label>\n"
        }
        return "<form class=\"filters\" hidden aria-label=\"Filter the tables\">\n<strong>Filter the tables</strong>\n"
            + select("workload", "Workload", workloads.map { ($0, $0) })
            + select("layer", "Layer", [("window", "layer 1: window"), ("consumed", "layer 2: consumed set"), ("pipeline", "both: pipelines")])
            + select("guarantee", "Guarantee", guarantees.map { ($0, $0) })
            + "<button type=\"reset\">Clear</button>\n</form>\n"
    }
}
