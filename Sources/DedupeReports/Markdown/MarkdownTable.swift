import Foundation
/// A GitHub-flavoured Markdown table.
struct MarkdownTable {
    var header: [String]
    /// Columns (by index) whose numbers align right.
    var alignRight: Set<Int>
    var rows: [[String]] = []

    func render() -> String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map(Self.escape).joined(separator: " | ") + " |\n"
        }
        var text = line(header)
        text += "|" + header.indices.map { alignRight.contains($0) ? " ---: " : " --- " }.joined(separator: "|") + "|\n"
        for row in rows { text += line(row) }
        return text
    }

    /// `text` as one table cell: `|` escaped, line breaks and other control characters as spaces.
    static func escape(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : $0 }))
            .replacingOccurrences(of: "|", with: "\\|")
    }
}
