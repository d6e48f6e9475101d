import DedupeDecision
import DedupeHarness

/// The charts the report embeds, each drawn from one sweep dimension.
package enum ChartReport {
    /// A chart and the file it is written to.
    package struct Chart: Sendable {
        package var fileName: String
        /// Alt text and caption in the Markdown.
        package var caption: String
        package var chart: LineChart
    }

    /// Every chart, in report order. Charts whose dimension has no points are still drawn
    /// (with "no data") so the set of files never depends on the filter.
    package static func charts(_ results: RunResults, recommendation: Recommendation? = nil) -> [Chart] {
        let falseDrops: (SweepPoint) -> Double? = { $0.falseDrops.map(Double.init) }
        let missed: (SweepPoint) -> Double? = { $0.missedDuplicates.map(Double.init) }
        let liveSet = "live fingerprints in the window (count)"
        return [windowChoiceChart(results, (recommendation ?? Recommendation.make(from: results)).windowLength)] + [
            sweepChart(
                results, .windowLiveSet, file: "window-ns-vs-live-set.svg", caption: "Layer 1: ns/event against live-set size",
                title: "Windows: time per event vs live fingerprints, every admit new",
                axes: (liveSet, "ns/event", logX: true, logY: true), \.nanosecondsPerEvent),
            sweepChart(
                results, .windowLiveSetRepeats, file: "window-ns-vs-live-set-50pct-repeats.svg",
                caption: "Layer 1: ns/event against live-set size, half the admits repeats",
                title: "Windows: time per event vs live fingerprints, 50% repeats",
                axes: (liveSet, "ns/event", logX: true, logY: true), \.nanosecondsPerEvent),
            sweepChart(
                results, .consumedSetSize, file: "consumed-ns-vs-size.svg", caption: "Layer 2: ns/consume against set size",
                title: "Consumed sets: time per consume vs ids held",
                axes: ("ids held (count)", "ns/consume", logX: true, logY: true), \.nanosecondsPerEvent),
            sweepChart(
                results, .consumedSetSize, file: "consumed-bytes-vs-size.svg", caption: "Layer 2: memory per id against set size",
                title: "Consumed sets: memory per id vs ids held",
                axes: ("ids held (count)", "bytes per id", logX: true, logY: true), \.bytes),
            sweepChart(
                results, .windowLength, file: "false-drops-vs-window.svg", caption: "False drops against window length",
                title: "False drops vs window length",
                axes: ("window length (ms)", "false drops (events)", logX: true, logY: false), falseDrops),
            sweepChart(
                results, .windowLength, file: "missed-vs-window.svg", caption: "Missed duplicates against window length",
                title: "Missed duplicates vs window length",
                axes: ("window length (ms)", "missed duplicates (events)", logX: true, logY: false), missed),
            sweepChart(
                results, .consumedCapacity, file: "missed-vs-capacity.svg", caption: "Missed duplicates against consumed-set capacity",
                title: "Missed duplicates vs capacity",
                axes: ("consumed-set capacity (ids)", "missed duplicates (events)", logX: true, logY: false), missed),
            sweepChart(
                results, .bloomBitsPerEntry, file: "missed-vs-bloom-bits.svg", caption: "Missed duplicates against Bloom bits per entry",
                title: "Missed duplicates vs Bloom bits per entry",
                axes: ("bits per entry", "missed duplicates (events)", logX: false, logY: false), missed),
            storeChart(results),
        ]
    }

    /// The chart of one sweep dimension: `value` of each point against the swept value.
    static func sweepChart(
        _ results: RunResults, _ dimension: SweepDimension, file: String, caption: String, title: String,
        axes: (x: String, y: String, logX: Bool, logY: Bool), _ value: (SweepPoint) -> Double?
    ) -> Chart {
        Chart(
            fileName: file, caption: caption,
            chart: LineChart(
                title: title, xLabel: axes.x, yLabel: axes.y, logX: axes.logX, logY: axes.logY,
                series: series(results, dimension, value)))
    }

    /// The store sweep's chart: median ns per consume against retained ids, one line per design.
    static let storeChartFileName = "store-ns-vs-size.svg"
    static let storeChartCaption = "Stores: ns per consume against retained ids"

    static func storeChart(_ results: RunResults) -> Chart {
        Chart(
            fileName: storeChartFileName, caption: storeChartCaption,
            chart: LineChart(
                title: "Stores: median time per consume on the calling thread vs retained ids (kill durability)",
                xLabel: "retained ids (count)", yLabel: "ns/consume", logX: true, logY: true,
                series: curves((results.stores?.sweep ?? []).map { ($0.design, Double($0.retained), $0.medianNanoseconds) })))
    }

    /// The file of the window-length choice chart.
    static let windowChoiceFileName = "window-length-choice.svg"

    /// False drops and missed duplicates against window length on the device workloads, with
    /// the recommended length marked by a vertical segment joining the two curves.
    static func windowChoiceChart(_ results: RunResults, _ choice: WindowLengthChoice?) -> Chart {
        var series: [LineChart.Series] = []
        if let choice {
            series.append(.init(name: "false drops", points: choice.points.map { ($0.milliseconds, Double($0.falseDrops)) }))
            series.append(.init(name: "missed duplicates", points: choice.points.map { ($0.milliseconds, Double($0.missedDuplicates)) }))
            if let chosen = choice.points.first(where: { $0.milliseconds == choice.milliseconds }) {
                series.append(.init(
                    name: "chosen: \(NumberText.significant(chosen.milliseconds)) ms",
                    points: [(chosen.milliseconds, Double(chosen.falseDrops)), (chosen.milliseconds, Double(chosen.missedDuplicates))]))
            }
        }
        return Chart(
            fileName: windowChoiceFileName, caption: "Window length: false drops and missed duplicates on the device workloads",
            chart: LineChart(
                title: "Device workloads: errors vs window length\(choice.map { " (\($0.strategy))" } ?? "")",
                xLabel: "window length (ms)", yLabel: "events (summed over device workloads)", logX: true, logY: false,
                series: series))
    }

    /// One series per strategy, in first-seen order; per strategy and workload when one
    /// dimension was swept on several workloads, so curves never mix inputs.
    static func series(_ results: RunResults, _ dimension: SweepDimension, _ value: (SweepPoint) -> Double?) -> [LineChart.Series] {
        let points = results.sweeps.filter { $0.dimension == dimension }
        // A sweep may use one workload per x (`consumed-set-1000`, …): that is still one curve.
        // Only when one strategy has several workloads at the same x are they separate curves.
        var workloadsAt: [String: Set<String?>] = [:]
        for point in points { workloadsAt["\(point.strategy)|\(point.x)", default: []].insert(point.workload) }
        let severalWorkloads = workloadsAt.values.contains { $0.count > 1 }
        return curves(points.compactMap { point in
            value(point).map { (severalWorkloads ? "\(point.strategy) (\(point.workload ?? "-"))" : point.strategy, point.x, $0) }
        })
    }

    /// One series per name, in first-seen order, each with its points in the order given.
    static func curves(_ points: some Sequence<(name: String, x: Double, y: Double)>) -> [LineChart.Series] {
        var order: [String] = []
        var curves: [String: [(x: Double, y: Double)]] = [:]
        for point in points {
            if curves[point.name] == nil { order.append(point.name) }
            curves[point.name, default: []].append((point.x, point.y))
        }
        return order.map { LineChart.Series(name: $0, points: curves[$0, default: []]) }
    }
}
