/// A tab-separated document (`compare --out`): one header row and data rows, one line each.
///
/// Fields are escaped as in linear TSV, so a name from a results file cannot add a column or a
/// row: `\` as `\\`, tab as `\t`, LF as `\n`, CR as `\r`, and every other control character (C0,
/// DEL, C1) as `\u{HEX}`, the form the command line's messages use. A reader splits on tabs
/// and newlines, then undoes the escapes.
public struct TSVTable: Sendable, Equatable {
    public var header: [String]
    public var rows: [[String]]

    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    /// The document as text, every line ending in `\n`.
    ///
    /// - Complexity: O(total characters).
    public func render() -> String {
        var text = ""
        for row in [header] + rows {
            text += row.map(Self.escaped).joined(separator: "\t")
            text += "\n"
        }
        return text
    }

    /// One field, escaped only where it holds a backslash or a control character.
    public static func escaped(_ field: String) -> String {
        MessageText.controlsEscaped(field, special: ["\\"])
    }
}
