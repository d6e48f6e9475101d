import DedupeWorkloads
import DedupeWorkloads

/// Text that prints as exactly one line whatever it quotes: file names, scenario ids and option
/// values come from the user and may hold a newline or an escape sequence.
package enum OneLine {
    /// `text` with every control character (C0, DEL, C1) written as an escape: `\n`, `\r`,
    /// `\t`, otherwise `\u{1B}`.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    package static func escaped(_ text: String) -> String {
        MessageText.controlsEscaped(text)
    }

    /// Raw argument bytes for a message: printable ASCII as is, every other byte as `\xNN`.
    package static func escaped(bytes: [UInt8]) -> String {
        bytes.map { byte in
            (0x20..<0x7f).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
