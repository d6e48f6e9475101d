import DedupeCommandLine

/// One `--filter` as given: the text its messages quote, the key, and either the ids
/// (`KEY=ID[,ID...]`, none of them empty) or one regular expression (`KEY=/REGEX/`, or `/REGEX/`
/// alone for `case=/REGEX/`). What a key means and which ids it knows is the subcommand's.
struct FilterClause {
    var text: String
    var key: String
    var ids: [String]
    /// The regular expression between the slashes, checked to compile (Swift `Regex` syntax);
    /// `nil` for a list of ids.
    var pattern: String?

    /// Splits `text` at its first `=` and at the commas after it, or takes the `/REGEX/` after
    /// the `=` whole (a pattern may hold `=` and `,`).
    ///
    /// - Throws: `CommandLineError` for a clause without `=` or with an empty id, or for a
    ///   pattern without its closing `/`, empty, or that does not compile.
    init(_ text: String) throws(CommandLineError) {
        self.text = text
        ids = []
        if text.hasPrefix("/") {
            key = "case"
            pattern = try Self.pattern(text, clause: text)
            return
        }
        guard let equals = text.firstIndex(of: "=") else { throw Self.invalid(text, "expected KEY=ID[,ID...] or KEY=/REGEX/") }
        key = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        if value.hasPrefix("/") {
            pattern = try Self.pattern(value, clause: text)
            return
        }
        ids = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !ids.contains(where: \.isEmpty) else { throw Self.invalid(text, "empty id") }
    }

    /// The source of `/REGEX/`, once it compiles.
    private static func pattern(_ value: String, clause: String) throws(CommandLineError) -> String {
        guard value.count >= 2, value.hasSuffix("/") else {
            throw invalid(clause, "a regular expression is written /REGEX/, and the closing / is missing")
        }
        let source = String(value.dropFirst().dropLast())
        guard !source.isEmpty else { throw invalid(clause, "empty regular expression") }
        do {
            _ = try Regex(source)
        } catch {
            throw invalid(clause, "not a regular expression: \(OneLine.escaped(String(describing: error)))")
        }
        return source
    }

    /// This clause refused for `reason`: `invalid value 'TEXT' for '--filter': REASON`.
    func invalid(_ reason: String) -> CommandLineError {
        Self.invalid(text, reason)
    }

    private static func invalid(_ text: String, _ reason: String) -> CommandLineError {
        CommandLineError(.badValue, "invalid value '\(text)' for '--filter': \(reason)")
    }
}
