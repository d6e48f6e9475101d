import Foundation
/// A CSV document: one header row and data rows, rendered with RFC 4180 quoting.
///
/// Fields that contain a comma, a double quote, CR or LF are wrapped in double quotes, with
/// inner quotes doubled; rows end in CRLF as RFC 4180 specifies.
package struct CSVTable: Sendable, Equatable {
    package var header: [String]
    package var rows: [[String]]

    package init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The document as text.
    ///
    /// - Complexity: O(total characters).
    package func render() -> String {
        rendered(field: Self.quote, separator: ",", lineEnd: "\r\n")
    }

    /// Every row, the header first, each field through `field`, joined by `separator`, each row
    /// ending in `lineEnd`: the one layout of the CSV and the tab-separated forms.
    func rendered(field: (String) -> String, separator: String, lineEnd: String) -> String {
        var text = ""
        for row in [header] + rows {
            text += row.map(field).joined(separator: separator)
            text += lineEnd
        }
        return text
    }

    /// One field, quoted only when RFC 4180 requires it.
    package static func quote(_ field: String) -> String {
        // Scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
        let needsQuotes = field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
