import DedupeWorkloads

/// Text placed in HTML: every string from data goes through ``escaped(_:)`` before it reaches a
/// page, so a name holding `<`, `&` or a quote shows as itself and never as markup.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and control characters
    /// other than line feed and tab shown as escapes (`\u{1B}`), the form the command line's
    /// messages use. Safe in text and in a quoted attribute value; a line feed stays one, for
    /// code blocks, and is a space elsewhere.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            case _ where MessageText.isControl(scalar): result += MessageText.controlsEscaped(String(scalar))
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Code as HTML: escaped, with a line-break opportunity (`<wbr>`) after each `/`, `+`, `;`
    /// and `,`, so a long case id wraps at its parts in a narrow column rather than anywhere.
    static func breakableCode(_ text: String) -> String {
        var result = ""
        for character in text {
            result += escaped(String(character))
            if "/+;,".contains(character) { result += "<wbr>" }
        }
        return result
    }

    /// A fragment id made of `text`'s letters and digits, the rest as `-`: `Per-layer comparison`
    /// → `per-layer-comparison`.
    static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "section" : slug
    }
}
