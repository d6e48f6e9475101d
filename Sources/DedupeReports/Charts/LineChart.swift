import Foundation
import DedupeHarness

/// A line chart rendered as standalone SVG, with no library.
///
/// Series are told apart without colour: each gets its own dash pattern and marker shape as
/// well as a colour. Log axes use decade ticks.
package struct LineChart: Sendable {
    package struct Series: Sendable {
        package var name: String
        /// (x, y) points; sorted by x when drawn.
        package var points: [(x: Double, y: Double)]

        package init(name: String, points: [(x: Double, y: Double)]) {
            self.name = name
            self.points = points
        }
    }

    package var title: String
    /// Axis titles carry their units: `live fingerprints (count)`, `ns/event`.
    package var xLabel: String
    package var yLabel: String
    package var logX: Bool
    package var logY: Bool
    package var series: [Series]

    package init(title: String, xLabel: String, yLabel: String, logX: Bool, logY: Bool, series: [Series]) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.logX = logX
        self.logY = logY
        self.series = series
    }

    static let width = 860.0
    static let height = 440.0
    static let plot = (left: 80.0, top: 40.0, right: 560.0, bottom: 370.0)
    /// Legend entries longer than this are cut with an ellipsis so they stay inside the image.
    static let legendCharacters = 34
    static let colours = ["#1b6ac9", "#d1495b", "#2e933c", "#8f5bd1", "#e08e0b", "#333333", "#0aa1a8"]
    static let dashes = ["", "8 4", "2 3", "10 3 2 3", "4 4", "12 6", "1 5"]

    /// The chart as an SVG document.
    ///
    /// - Complexity: O(points).
    package func svg() -> String {
        let drawable = series.map { series in
            Series(name: series.name, points: series.points
                .filter { $0.x.isFinite && $0.y.isFinite && (!logX || $0.x > 0) && (!logY || $0.y > 0) }
                .sorted { $0.x < $1.x })
        }
        let xs = drawable.flatMap { $0.points.map(\.x) }
        let ys = drawable.flatMap { $0.points.map(\.y) }
        let xAxis = Axis(values: xs, log: logX, from: Self.plot.left, to: Self.plot.right)
        let yAxis = Axis(values: ys, log: logY, from: Self.plot.bottom, to: Self.plot.top)

        // The legend may need more room than the plot when there are many series.
        let height = max(Self.height, Self.plot.top + 30 + Double(drawable.count) * 22)
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(height))" \
        viewBox="0 0 \(Int(Self.width)) \(Int(height))" font-family="sans-serif" font-size="12">
        <title>\(XML.escape(title))</title>
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(f(Self.width / 2))" y="22" text-anchor="middle" font-size="15">\(XML.escape(title))</text>

        """
        let p = Self.plot
        out += "<rect x=\"\(f(p.left))\" y=\"\(f(p.top))\" width=\"\(f(p.right - p.left))\" height=\"\(f(p.bottom - p.top))\" fill=\"none\" stroke=\"#999\"/>\n"
        for tick in xAxis.ticks() {
            let x = xAxis.position(tick)
            out += "<line x1=\"\(f(x))\" y1=\"\(f(p.top))\" x2=\"\(f(x))\" y2=\"\(f(p.bottom))\" stroke=\"#e4e4e4\"/>\n"
            out += "<text x=\"\(f(x))\" y=\"\(f(p.bottom + 16))\" text-anchor=\"middle\">\(XML.escape(Axis.label(tick)))</text>\n"
        }
        for tick in yAxis.ticks() {
            let y = yAxis.position(tick)
            out += "<line x1=\"\(f(p.left))\" y1=\"\(f(y))\" x2=\"\(f(p.right))\" y2=\"\(f(y))\" stroke=\"#e4e4e4\"/>\n"
            out += "<text x=\"\(f(p.left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(XML.escape(Axis.label(tick)))</text>\n"
        }
        let xTitle = xLabel + (logX ? " — log scale" : "")
        let yTitle = yLabel + (logY ? " — log scale" : "")
        out += "<text x=\"\(f((p.left + p.right) / 2))\" y=\"\(f(p.bottom + 40))\" text-anchor=\"middle\">\(XML.escape(xTitle))</text>\n"
        out += "<text transform=\"translate(18 \(f((p.top + p.bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">\(XML.escape(yTitle))</text>\n"

        if drawable.allSatisfy(\.points.isEmpty) {
            out += "<text x=\"\(f((p.left + p.right) / 2))\" y=\"\(f((p.top + p.bottom) / 2))\" text-anchor=\"middle\" fill=\"#666\">no data</text>\n"
        }
        for (index, series) in drawable.enumerated() {
            let colour = Self.colours[index % Self.colours.count]
            let dash = Self.dashes[index % Self.dashes.count]
            let coordinates = series.points.map { (xAxis.position($0.x), yAxis.position($0.y)) }
            if coordinates.count > 1 {
                let path = coordinates.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
                out += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\""
                out += dash.isEmpty ? "/>\n" : " stroke-dasharray=\"\(dash)\"/>\n"
            }
            for point in coordinates {
                out += Marker.shape(index, x: point.0, y: point.1, colour: colour) + "\n"
            }
            let legendY = p.top + 10 + Double(index) * 22
            let legendX = p.right + 16
            out += "<line x1=\"\(f(legendX))\" y1=\"\(f(legendY))\" x2=\"\(f(legendX + 36))\" y2=\"\(f(legendY))\" stroke=\"\(colour)\" stroke-width=\"2\""
            out += dash.isEmpty ? "/>\n" : " stroke-dasharray=\"\(dash)\"/>\n"
            out += Marker.shape(index, x: legendX + 18, y: legendY, colour: colour) + "\n"
            let name = series.name.count > Self.legendCharacters
                ? String(series.name.prefix(Self.legendCharacters - 1)) + "…" : series.name
            out += "<text x=\"\(f(legendX + 44))\" y=\"\(f(legendY + 4))\">\(XML.escape(name))</text>\n"
        }
        out += "</svg>\n"
        return out
    }
}

/// Coordinates with two decimals: enough for a screen, stable across platforms.
func f(_ value: Double) -> String {
    NumberText.fixed(value, 2)
}

/// Maps data values to pixels, linearly or by decades.
struct Axis {
    var low: Double
    var high: Double
    var log: Bool
    var from: Double
    var to: Double

    init(values: [Double], log: Bool, from: Double, to: Double) {
        self.log = log
        self.from = from
        self.to = to
        var low = values.min() ?? (log ? 1 : 0)
        var high = values.max() ?? (log ? 10 : 1)
        if log {
            low = Foundation.pow(10, Foundation.floor(Foundation.log10(low)))
            high = Foundation.pow(10, Foundation.ceil(Foundation.log10(high)))
            if high <= low { high = low * 10 }
        } else {
            // Counts and rates read best from zero.
            low = Swift.min(0, low)
            if high <= low { high = low + 1 }
            let step = Axis.niceStep((high - low) / 5)
            high = Foundation.ceil(high / step) * step
        }
        self.low = low
        self.high = high
    }

    func position(_ value: Double) -> Double {
        let fraction = log
            ? (Foundation.log10(value) - Foundation.log10(low)) / (Foundation.log10(high) - Foundation.log10(low))
            : (value - low) / (high - low)
        return from + fraction * (to - from)
    }

    func ticks() -> [Double] {
        if log {
            var ticks: [Double] = []
            var tick = low
            while tick <= high * 1.000_001 {
                ticks.append(tick)
                tick *= 10
            }
            return ticks
        }
        let step = Axis.niceStep((high - low) / 5)
        return stride(from: low, through: high + step / 1000, by: step).map { $0 }
    }

    /// 1, 2 or 5 times a power of ten.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0 else { return 1 }
        let magnitude = Foundation.pow(10, Foundation.floor(Foundation.log10(raw)))
        let scaled = raw / magnitude
        return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * magnitude
    }

    /// `10k`, `1.5M`, `0.5`, `250`.
    static func label(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e9 { return compact(value / 1e9) + "G" }
        if magnitude >= 1e6 { return compact(value / 1e6) + "M" }
        if magnitude >= 1e4 { return compact(value / 1e3) + "k" }
        return compact(value)
    }

    /// Whole numbers without decimals; others to three significant figures.
    static func compact(_ value: Double) -> String {
        value == value.rounded() ? NumberText.fixed(value, 0) : NumberText.significant(value)
    }
}

/// Marker shapes that stay distinct in greyscale: circle, square, triangle, diamond, cross, …
enum Marker {
    static func shape(_ index: Int, x: Double, y: Double, colour: String) -> String {
        let r = 4.0
        switch index % 6 {
        case 0:
            return "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(r))\" fill=\"\(colour)\"/>"
        case 1:
            return "<rect x=\"\(f(x - r))\" y=\"\(f(y - r))\" width=\"\(f(2 * r))\" height=\"\(f(2 * r))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>"
        case 2:
            return "<polygon points=\"\(f(x)),\(f(y - r - 1)) \(f(x - r - 1)),\(f(y + r)) \(f(x + r + 1)),\(f(y + r))\" fill=\"\(colour)\"/>"
        case 3:
            return "<polygon points=\"\(f(x)),\(f(y - r - 1)) \(f(x + r + 1)),\(f(y)) \(f(x)),\(f(y + r + 1)) \(f(x - r - 1)),\(f(y))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>"
        case 4:
            return "<path d=\"M\(f(x - r)) \(f(y - r))L\(f(x + r)) \(f(y + r))M\(f(x - r)) \(f(y + r))L\(f(x + r)) \(f(y - r))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
        default:
            return "<path d=\"M\(f(x - r)) \(f(y))L\(f(x + r)) \(f(y))M\(f(x)) \(f(y - r))L\(f(x)) \(f(y + r))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
        }
    }
}

/// XML text and attribute escaping.
package enum XML {
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
