@testable import DedupeCLI
import Foundation
import Testing

/// The README shows the reference run's headline; it must be the tool's output, not a hand edit
/// or a stale copy.
@Suite struct ReadmeHeadlineTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func readmeShowsTheReferenceRunsHeadlineVerbatim() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let headline = try String(contentsOf: Self.root.appendingPathComponent("Reports/headline.md"), encoding: .utf8)
        let begin = "<!-- headline: copied from Reports/headline.md -->\n"
        let end = "<!-- end of headline -->"
        guard let start = readme.range(of: begin), let stop = readme.range(of: end, range: start.upperBound..<readme.endIndex) else {
            Issue.record("README.md has no headline markers")
            return
        }
        #expect(String(readme[start.upperBound..<stop.lowerBound]) == headline,
                "README's headline differs from Reports/headline.md: copy it again after regenerating Reports/")
    }

    /// The README reads in two minutes: at most 120 lines, no table wider than seven columns, no
    /// prose line over 400 characters, and every subcommand named.
    @Test func readmeStaysShort() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 121, "README.md has \(lines.count - 1) lines")
        var inCode = false
        for (number, line) in lines.enumerated() {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            if inCode { continue }
            if line.hasPrefix("|") {
                let columns = line.split(separator: "|", omittingEmptySubsequences: false).count - 2
                #expect(columns <= 7, "README.md:\(number + 1) is a table row of \(columns) columns")
            } else {
                #expect(line.count <= 400, "README.md:\(number + 1) is \(line.count) characters")
            }
        }
        for subcommand in Subcommands.all {
            #expect(readme.contains("`\(subcommand.name)`"), "README.md does not name `\(subcommand.name)`")
        }
    }
}
