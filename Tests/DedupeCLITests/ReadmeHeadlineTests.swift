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
}
