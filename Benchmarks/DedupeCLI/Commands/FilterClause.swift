import DedupeCommandLine

/// One `--filter KEY=ID[,ID...]` as given: the text its messages quote, the key, and the ids,
/// none of them empty. What a key means and which ids it knows is the subcommand's.
struct FilterClause {
    var text: String
    var key: String
    var ids: [String]

    /// Splits `text` at its first `=` and at the commas after it.
    ///
    /// - Throws: `CommandLineError` for a clause without `=` or with an empty id.
    init(_ text: String) throws(CommandLineError) {
        self.text = text
        guard let equals = text.firstIndex(of: "=") else { throw Self.invalid(text, "expected KEY=ID[,ID...]") }
        key = String(text[..<equals])
        ids = text[text.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !ids.contains(where: \.isEmpty) else { throw Self.invalid(text, "empty id") }
    }

    /// This clause refused for `reason`: `invalid value 'TEXT' for '--filter': REASON`.
    func invalid(_ reason: String) -> CommandLineError {
        Self.invalid(text, reason)
    }

    private static func invalid(_ text: String, _ reason: String) -> CommandLineError {
        CommandLineError(.badValue, "invalid value '\(text)' for '--filter': \(reason)")
    }
}
