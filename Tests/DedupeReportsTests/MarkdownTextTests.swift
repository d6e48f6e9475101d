import Testing
@testable import DedupeReports

/// Names from outside the tool in Markdown: they stay on their line and cannot open markup.
@Suite struct MarkdownTextTests {
    @Test func codeSpansAreFencedLongerThanAnyBacktickRun() {
        #expect(MarkdownText.code("trace.csv") == "`trace.csv`")
        #expect(MarkdownText.code("a`b") == "``a`b``")
        #expect(MarkdownText.code("a``b`") == "``` a``b` ```")
        #expect(MarkdownText.code("`") == "`` ` ``")
        #expect(MarkdownText.code("two\nlines\u{1B}[2J") == "`two\\nlines\\u{1B}[2J`")
    }

    @Test func proseEscapesMarkupAndShowsControls() {
        #expect(MarkdownText.escaped("plain name-1.csv") == "plain name-1.csv")
        #expect(MarkdownText.escaped("*a*_b_[c](d)<e>&f|g~h!#") == "\\*a\\*\\_b\\_\\[c\\](d)\\<e\\>\\&f\\|g\\~h\\!\\#")
        #expect(MarkdownText.escaped("a\\b") == "a\\\\b")
        #expect(MarkdownText.escaped("new\nline") == "new\\\\nline")
    }

    /// A newline or a `|` in a name (a trace's file name) keeps a table's rows and columns.
    @Test func tableCellsStayOneCellOnOneRow() {
        #expect(MarkdownText.tableCell("a|b") == "a\\|b")
        #expect(MarkdownText.tableCell("`x|y`") == "`x\\|y`")
        var table = MarkdownTable(header: ["Name", "Value"], alignRight: [1])
        table.rows = [["a\nb|c\r\n", "1"], [MarkdownText.code("x`\ty"), "2"]]
        let lines = table.render().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[4].isEmpty)
        #expect(lines[2] == "| a\\nb\\|c\\r\\n | 1 |")
        #expect(lines[3] == "| ``x`\\ty`` | 2 |")
    }
}
