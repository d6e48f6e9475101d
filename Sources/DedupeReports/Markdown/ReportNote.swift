/// A note a report and the terminal summary both print: a short title and a body whose code
/// names are in backticks, which each output renders in its own way.
public struct ReportNote: Sendable, Equatable {
    public var title: String
    public var body: String

    /// `> **Title.** Body`: a block quote in a Markdown report.
    public var markdown: String { "> **\(title)** \(body)" }
    /// `Title. Body`: a line of the terminal summary.
    public var plainText: String { "\(title) \(body)" }
}
