/// Text placed in HTML: every string from data goes through ``escaped(_:)`` before it reaches a
/// page, so a name holding `<`, `&` or a quote shows as itself and never as markup.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references, and control characters
    /// shown as escapes (`\n`, `\u{1B}`), the form the command line's messages use. Safe in text
    /// and in a quoted attribute value.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in MessageText.controlsEscaped(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
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
