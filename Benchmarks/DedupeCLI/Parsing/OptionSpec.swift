/// One option a subcommand accepts.
public struct OptionSpec: Sendable, Equatable {
    /// Long name without dashes: `seed` for `--seed`.
    public var name: String
    /// Short form without the dash, if any: `h` for `-h`.
    public var short: Character?
    /// `VALUE` placeholder for help; `nil` for a flag that takes no value.
    public var valueName: String?
    /// May be given more than once (`--filter`); otherwise a repeat is an error.
    public var repeatable: Bool
    public var help: String

    public init(_ name: String, short: Character? = nil, value valueName: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.repeatable = repeatable
        self.help = help
    }

    /// Every subcommand accepts it.
    public static let help = OptionSpec("help", short: "h", help: "Show help for this command.")
}
