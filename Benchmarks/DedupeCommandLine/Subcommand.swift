/// One verb of a ``CommandLineTool``: its name, help and options, and what it does.
package struct Subcommand: Sendable {
    package var name: String
    /// One line for the command list.
    package var summary: String
    /// Positionals for the usage line, e.g. `BASELINE.json CURRENT.json`.
    package var positionals: String
    /// Paragraphs after the options in `--help`.
    package var discussion: String
    package var options: [OptionSpec]
    /// Runs with parsed arguments; returns the exit code.
    package var run: @Sendable (ParsedArguments, Console) throws(CommandLineError) -> Int32

    package init(
        name: String, summary: String, positionals: String, discussion: String, options: [OptionSpec],
        run: @escaping @Sendable (ParsedArguments, Console) throws(CommandLineError) -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.discussion = discussion
        self.options = options
        self.run = run
    }

    /// The `--help` text; `usage` is how the verb is invoked (`dedupe-bench compare`).
    func help(usage: String) -> String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)"
        if !options.isEmpty { text += " [options]" }
        if !positionals.isEmpty { text += " \(positionals)" }
        text += "\n\nOPTIONS:\n"
        let rows = (options + [.help]).map { option -> (String, String) in
            var left = "--\(option.name)"
            if let short = option.short { left = "-\(short), " + left }
            if let value = option.valueName { left += " <\(value)>" }
            return (left, option.help + (option.repeatable ? " (repeatable)" : ""))
        }
        let width = rows.map(\.0.count).max() ?? 0
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
        }
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        return text
    }
}
