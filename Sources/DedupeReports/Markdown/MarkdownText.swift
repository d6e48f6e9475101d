import DedupeWorkloads

/// Text from outside the tool — a trace's file name, ids and labels from a results file — placed
/// in Markdown, where a newline would end a table row or a paragraph, and a backtick, a bracket
/// or an angle bracket would start markup.
///
/// Control characters are shown as escapes (`\n`, `\u{1B}`), the form the command line's
/// messages use (`MessageText.controlsEscaped`), so a name reads the same in both.
package enum MarkdownText {
    /// `text` as a code span: fenced with one backtick more than its longest run of backticks,
    /// with a space inside the fence when it starts or ends with one, so no name can close the
    /// span early.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func code(_ text: String) -> String {
        let visible = MessageText.controlsEscaped(text)
        var longest = 0
        var run = 0
        for scalar in visible.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = visible.hasPrefix("`") || visible.hasSuffix("`") ? " " : ""
        return fence + padding + visible + padding + fence
    }

    /// `text` as plain prose: the characters Markdown reads as markup (`\`, `` ` ``, `*`, `_`,
    /// `[`, `]`, `<`, `>`, `&`, `|`, `~`, `!`, `#`) escaped with a backslash.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func escaped(_ text: String) -> String {
        MessageText.controlsEscaped(text, backslash: "\\\\", special: markup)
    }

    /// One cell of a table: `|` as `\|` and control characters as escapes, so the cell stays one
    /// cell on its row. Markup the report puts in a cell (code spans, emphasis) is kept; names
    /// inside it go through ``code(_:)`` or ``escaped(_:)`` first.
    static func tableCell(_ text: String) -> String {
        MessageText.controlsEscaped(text, special: ["|"])
    }

    private static let markup: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "<", ">", "&", "|", "~", "!", "#"]
}
