/// One `dedupe-bench` subcommand: its name, help and options, and what it does.
struct Subcommand: Sendable {
    var name: String
    /// One line for the command list.
    var summary: String
    /// Positionals for the usage line, e.g. `BASELINE.json CURRENT.json`.
    var positionals: String
    /// Paragraphs after the options in `--help`.
    var discussion: String
    var options: [OptionSpec]
    /// Runs with parsed arguments; returns the exit code.
    var run: @Sendable (ParsedArguments, Console) throws(CommandLineError) -> Int32

    /// The `--help` text.
    func help() -> String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: dedupe-bench \(name)"
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
