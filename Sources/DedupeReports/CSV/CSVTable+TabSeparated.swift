import DedupeWorkloads

extension CSVTable {
    /// The table tab-separated (`compare --out`), one line per row, each ending in `\n`.
    ///
    /// Fields are escaped as in linear TSV, so a name from a results file cannot add a column or
    /// a row: `\` as `\\`, tab as `\t`, LF as `\n`, CR as `\r`, and every other control
    /// character (C0, DEL, C1) as `\u{HEX}`, the form the command line's messages use. A reader
    /// splits on tabs and newlines, then undoes the escapes.
    ///
    /// - Complexity: O(total characters).
    package func renderTabSeparated() -> String {
        rendered(field: Self.tabSeparatedField, separator: "\t", lineEnd: "\n")
    }

    /// One tab-separated field, escaped only where it holds a backslash or a control character.
    package static func tabSeparatedField(_ field: String) -> String {
        MessageText.controlsEscaped(field, special: ["\\"])
    }
}
