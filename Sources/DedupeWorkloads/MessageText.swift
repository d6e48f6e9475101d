/// Strings from outside the tool (a results file's `cpuModel` and ids, a trace's file name) put
/// into a message, a table or a report: cut to a readable length, and with control characters
/// shown as escapes so they cannot end a line, split a field or drive a terminal.
package enum MessageText {
    /// The most Unicode scalars of one quoted string a message shows.
    package static let limit = 200

    /// `text`, or its first `limit` Unicode scalars followed by `…(N more)`, so a 100 MB field
    /// cannot become a 100 MB warning line. Scalars, not characters: the count is the same in
    /// every Unicode version and costs one pass.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func clipped(_ text: String, limit: Int = limit) -> String {
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end != scalars.endIndex
        else { return text }
        let rest = scalars.distance(from: end, to: scalars.endIndex)
        return String(scalars[..<end]) + "…(\(rest) more)"
    }

    /// `text` with every control character (C0, DEL, C1) written as `backslash` followed by `n`,
    /// `r`, `t` or `u{HEX}` (`\n`, `\u{1B}`), and every scalar of `special` preceded by a
    /// backslash. `backslash` is what shows as one backslash where the text goes: `\` in a
    /// message, `\\` in Markdown prose.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func controlsEscaped(_ text: String, backslash: String = "\\", special: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || special.contains($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case _ where special.contains(scalar): result += "\\"; result.unicodeScalars.append(scalar)
            case "\n": result += backslash + "n"
            case "\r": result += backslash + "r"
            case "\t": result += backslash + "t"
            case _ where isControl(scalar): result += backslash + "u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` clipped, then with its control characters escaped: a string from a file, ready to
    /// quote in a one-line message.
    package static func quoted(_ text: String) -> String {
        controlsEscaped(clipped(text))
    }

    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7f..<0xa0).contains(scalar.value)
    }
}
