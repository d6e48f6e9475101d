import DedupeDecision
import DedupeHarness
import Foundation

extension HTMLReport {
    // MARK: Timing samples

    /// One strip plot per sampled case and workload: every timed repetition's ns/event, one row
    /// of dots per timing fork, on an axis shared by the cases of that workload.
    static func distributionsSection(_ results: RunResults, choices: [String]) -> String {
        var out = "<h2 id=\"timing-samples\">Timing samples</h2>\n"
        out += "<p>Every timed repetition of the sampled cases on the device workloads (the pick, the runner-up, the next pipelines of the ranking, "
        out += "the published code and the pick behind the router; each at the identity and persistence its strategies were "
        out += "timed with): one dot per repetition, one row and colour per timing fork, "
        out += "on an axis shared by the cases of one workload (logarithmic when the samples span more than 10×). "
        out += "A fork that sits apart is the process-to-process variance the speed step's margin allows for. "
        out += "Every sample: <code>results.json</code>.</p>\n"
        var rows = ""
        // Identity and persistence twins run the same strategies; the run times one of them.
        func strategies(_ choice: StrategyChoice) -> String { "\(choice.mode.rawValue)/\(choice.strategiesText)" }
        let sampled = choices.reduce(into: [String]()) { list, choice in
            let key = results.cases.first { $0.choice.text == choice }.map { strategies($0.choice) } ?? choice
            if !list.contains(key) { list.append(key) }
        }
        for workload in results.deviceWorkloadIDs {
            let cases = sampled.compactMap { key in
                results.cases.first { $0.workload == workload && strategies($0.choice) == key && $0.timing?.samplesNanosecondsPerEvent.isEmpty == false }
            }
            let samples = cases.flatMap { $0.timing?.samplesNanosecondsPerEvent ?? [] }.filter { $0.isFinite && $0 > 0 }
            guard let low = samples.min(), let high = samples.max() else { continue }
            let scale = StripScale(low: low, high: high)
            for result in cases {
                guard let timing = result.timing else { continue }
                let forks = max(1, timing.forks ?? 1)
                rows += "<tr><td><code>\(HTMLText.escaped(workload))</code></td><td><code>\(HTMLText.breakableCode(result.choice.text))</code></td>"
                rows += "<td>" + stripPlot(timing.samplesNanosecondsPerEvent, forks: forks, scale: scale) + "</td>"
                rows += "<td class=\"num\">\(NumberText.significant(timing.medianNanosecondsPerEvent))</td>"
                rows += "<td class=\"num\">\(NumberText.significant(timing.spreadNanosecondsPerEvent))</td>"
                rows += "<td class=\"num\">\(forks) × \(timing.samplesNanosecondsPerEvent.count / forks)</td></tr>\n"
            }
        }
        guard !rows.isEmpty else { return out + "<p class=\"note\">No sampled case was timed in this run.</p>\n" }
        return out + "<div class=\"table-wrap\"><table class=\"data\">\n<thead><tr><th>Workload</th><th>Case</th>"
            + "<th>ns/event by fork</th><th class=\"num\">Median ns/event</th><th class=\"num\">IQR ns/event</th>"
            + "<th class=\"num\">Forks × repetitions</th></tr></thead>\n<tbody>\n" + rows + "</tbody>\n</table></div>\n"
    }

    /// Where a sample goes on a strip plot's axis.
    struct StripScale {
        var low: Double
        var high: Double
        var logarithmic: Bool { high > 10 * low }
        static let width = 240.0
        static let margin = 6.0

        func position(_ value: Double) -> Double {
            let (a, b, v) = logarithmic ? (log10(low), log10(high), log10(value)) : (low, high, value)
            let fraction = b > a ? (v - a) / (b - a) : 0.5
            return Self.margin + fraction * (Self.width - 2 * Self.margin)
        }

        var caption: String { "\(NumberText.significant(low))–\(NumberText.significant(high)) ns/event" + (logarithmic ? ", log" : "") }
    }

    static let forkColours = ["#1f6fd1", "#d2461e", "#2a9d4b", "#8e44ad", "#c79200", "#17a2b8", "#6c757d", "#e83e8c"]

    /// The samples as dots, fork by fork (`forks` blocks of equal length, in order).
    static func stripPlot(_ samples: [Double], forks: Int, scale: StripScale) -> String {
        let perFork = max(1, samples.count / forks)
        let rowHeight = 7.0
        let height = 8 + Double(forks) * rowHeight
        let size = "width=\"\(Int(StripScale.width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(StripScale.width)) \(Int(height))\""
        var svg = "<svg class=\"strip\" \(size) role=\"img\" aria-label=\"\(HTMLText.escaped(scale.caption))\">"
        svg += "<title>\(HTMLText.escaped(scale.caption))</title>"
        for fork in 0..<forks {
            let block = samples.dropFirst(fork * perFork).prefix(perFork).filter { $0.isFinite && $0 > 0 }
            guard !block.isEmpty else { continue }
            let y = 4 + (Double(fork) + 0.5) * rowHeight
            let path = block.map { "M\(String(format: "%.1f", scale.position($0))) \(String(format: "%.1f", y))h0" }.joined()
            svg += "<path d=\"\(path)\" stroke=\"\(forkColours[fork % forkColours.count])\" stroke-width=\"5\" stroke-linecap=\"round\" stroke-opacity=\"0.7\"/>"
        }
        return svg + "</svg>"
    }

    // MARK: Decision diff

    /// The pair the view opens on: the pick against the published code, on the workload where
    /// the kept events show them differing most.
    static func defaultPair(_ data: DecisionDiffData, published: String?) -> (workload: Int, a: Int, b: Int) {
        let a = 0
        let b = published.flatMap { data.cases.firstIndex(of: $0) }.flatMap { $0 == a ? nil : $0 } ?? 1
        var best = (index: 0, count: -1)
        for (index, workload) in data.workloads.enumerated() {
            let count = differingRows(workload, a, b).count
            if count > best.count { best = (index, count) }
        }
        return (best.index, a, b)
    }

    static func differingRows(_ workload: DecisionDiffData.WorkloadDiff, _ a: Int, _ b: Int) -> [DecisionDiffData.Row] {
        workload.rows.filter { row in
            let letters = Array(row.decisions)
            return a < letters.count && b < letters.count && DecisionDiffData.differ(letters[a], letters[b])
        }
    }

    static func diffSection(_ data: DecisionDiffData?, recommendation: Recommendation) -> String {
        var out = "<h2>Decision diff</h2>\n"
        out += "<p>Two cases on one workload, event by event: each mark is an event where one navigates and the other does not, "
        out += "above the axis when A navigates, below when B does; coloured by the event's truth "
        out += "(<span class=\"wanted\">wanted</span>, <span class=\"dup\">duplicate</span>, <span class=\"unknown\">unlabelled</span>), "
        out += "and labelled, when few, by the cause: the decision of the case that did not navigate "
        out += DecisionDiffData.letters.map { "<code>\(HTMLText.escaped(String($0.letter)))</code> \(HTMLText.escaped($0.label))" }.joined(separator: ", ")
        out += ". The decisions are those <code>--decisions FILE.csv</code> writes (same event numbers and labels), sampled for the "
        out += "cases of § Timing samples and bounded: the first \(DecisionDiffData.eventBound) events per workload where any two of "
        out += "them differ.</p>\n"
        guard let data, data.cases.count >= 2, !data.workloads.isEmpty else {
            return "<section id=\"decision-diff\" data-expected-marks=\"0\">\n" + out
                + "<p class=\"note\">No decisions were sampled for this page (a replay, or a page rendered again from "
                + "<code>results.json</code>): <code>dedupe-bench run</code> samples them.</p>\n</section>\n"
        }
        let (workloadIndex, a, b) = defaultPair(data, published: recommendation.published()?.choice.text)
        let workload = data.workloads[workloadIndex]
        let rows = differingRows(workload, a, b)
        let total = workload.pairTotals[DecisionDiffData.pairIndex(min(a, b), max(a, b), count: data.cases.count)]
        func options(_ texts: [String], selected: Int) -> String {
            texts.enumerated().map { index, text in
                "<option value=\"\(index)\"\(index == selected ? " selected" : "")>\(HTMLText.escaped(text))</option>"
            }.joined()
        }
        out += "<div class=\"diff-controls\" hidden>\n"
        out += "<label>Workload <select name=\"diff-workload\">"
            + options(data.workloads.map { "\($0.id) (\($0.events) events)" }, selected: workloadIndex) + "</select></label>\n"
        out += "<label>A <select name=\"diff-a\">" + options(data.cases, selected: a) + "</select></label>\n"
        out += "<label>B <select name=\"diff-b\">" + options(data.cases, selected: b) + "</select></label>\n</div>\n"
        out += "<div id=\"diff-timeline\"></div>\n"
        var note = "\(rows.count) of \(total) event(s) where the two differ on <code>\(HTMLText.escaped(workload.id))</code>"
        if rows.count < total {
            note += " <span class=\"cut\">Cut: the page keeps the first \(data.bound) events per workload where any two sampled "
                + "cases differ (the shaded span is past them); --decisions FILE.csv writes them all.</span>"
        }
        out += "<p id=\"diff-note\" class=\"note\">\(note)</p>\n"
        var table = "<div class=\"table-wrap\"><table class=\"data\">\n<thead><tr><th class=\"num\">Event</th><th class=\"num\">Time (ms)</th>"
            + "<th>Kind</th><th>Truth</th><th>A: \(HTMLText.escaped(data.cases[a]))</th><th>B: \(HTMLText.escaped(data.cases[b]))</th></tr></thead>\n<tbody>\n"
        let labels = Dictionary(uniqueKeysWithValues: DecisionDiffData.letters.map { ($0.letter, $0.label) })
        let truths = ["n": ("wanted", "wanted"), "d": ("duplicate", "dup"), "u": ("unlabelled", "unknown")]
        for row in rows {
            let letters = Array(row.decisions)
            let truth = truths[row.truth] ?? ("unlabelled", "unknown")
            table += "<tr><td class=\"num\">\(row.event)</td><td class=\"num\">\(millisecondsText(row.timeMilliseconds))</td>"
            table += "<td>\(row.kind == "e" ? "emit" : "payload")</td><td class=\"\(truth.1)\">\(truth.0)</td>"
            table += "<td>\(HTMLText.escaped(labels[letters[a]] ?? "—"))</td><td>\(HTMLText.escaped(labels[letters[b]] ?? "—"))</td></tr>\n"
        }
        table += "</tbody>\n</table></div>\n"
        return "<section id=\"decision-diff\" data-expected-marks=\"\(rows.count)\">\n" + out + table
            + "<script type=\"application/json\" id=\"decision-data\">" + json(data) + "</script>\n</section>\n"
    }

    /// As the script writes a time: whole milliseconds without a fraction.
    static func millisecondsText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `data` as JSON that cannot end the script element it sits in: `<`, `>` and `&` as `\u` escapes.
    static func json(_ data: DecisionDiffData) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(data)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return text.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}
