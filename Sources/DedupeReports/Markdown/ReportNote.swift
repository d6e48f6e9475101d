/// A note a report and the terminal summary both print: a short title and a body whose code
/// names are in backticks, which each output renders in its own way.
package struct ReportNote: Sendable, Equatable {
    package var title: String
    package var body: String

    /// `> **Title.** Body`: a block quote in a Markdown report.
    package var markdown: String { "> **\(title)** \(body)" }
    /// `Title. Body`: a line of the terminal summary.
    package var plainText: String { "\(title) \(body)" }
}
