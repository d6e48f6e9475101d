/// One option a subcommand accepts.
package struct OptionSpec: Sendable, Equatable {
    /// Long name without dashes: `seed` for `--seed`.
    package var name: String
    /// Short form without the dash, if any: `h` for `-h`.
    package var short: Character?
    /// `VALUE` placeholder for help; `nil` for a flag that takes no value.
    package var valueName: String?
    /// May be given more than once (`--filter`); otherwise a repeat is an error.
    package var repeatable: Bool
    package var help: String

    package init(_ name: String, short: Character? = nil, value valueName: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.repeatable = repeatable
        self.help = help
    }

    /// Every subcommand accepts it.
    package static let help = OptionSpec("help", short: "h", help: "Show help for this command.")
}
