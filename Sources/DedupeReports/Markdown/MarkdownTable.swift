import Foundation
/// A GitHub-flavoured Markdown table. Every cell goes through `MarkdownText.tableCell`, so a
/// newline or a `|` in a name cannot end its row or split its cell.
struct MarkdownTable {
    var header: [String]
    /// Columns (by index) whose numbers align right.
    var alignRight: Set<Int>
    var rows: [[String]] = []

    func render() -> String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map(MarkdownText.tableCell).joined(separator: " | ") + " |\n"
        }
        var text = line(header)
        text += "|" + header.indices.map { alignRight.contains($0) ? " ---: " : " --- " }.joined(separator: "|") + "|\n"
        for row in rows { text += line(row) }
        return text
    }
}
