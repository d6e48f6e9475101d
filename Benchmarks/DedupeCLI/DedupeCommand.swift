import DedupeHarness

/// The `dedupe-bench` command: dispatches to a subcommand and turns every failure into one
/// line on stderr and an exit code.
///
/// Exit codes: 0 success; 1 `compare` found a significant regression; 2 a usage error, a
/// missing or malformed file, or a run the harness refused.
public enum DedupeCommand {
    /// Runs the command and returns the process exit code. Never traps on any `arguments`.
    public static func main(arguments: [String], console: Console = .standard) -> Int32 {
        do {
            return try dispatch(arguments, console: console)
        } catch {
            console.error("dedupe-bench: error: \(OneLine.escaped(error.message))\n")
            return 2
        }
    }

    /// Runs the command on the process's raw argument bytes. An argument that is not valid
    /// UTF-8 (a file name from a non-UTF-8 file system) cannot be passed on as a `String`
    /// without changing it, so it is refused by name rather than reported as a missing file.
    public static func main(rawArguments: [[UInt8]], console: Console = .standard) -> Int32 {
        var arguments: [String] = []
        for raw in rawArguments {
            guard let argument = String(validating: raw, as: UTF8.self) else {
                console.error(
                    "dedupe-bench: error: argument '\(OneLine.escaped(bytes: raw))' is not valid UTF-8 "
                        + "(file names and values must be UTF-8)\n")
                return 2
            }
            arguments.append(argument)
        }
        return main(arguments: arguments, console: console)
    }

    static func dispatch(_ arguments: [String], console: Console) throws(CommandLineError) -> Int32 {
        guard let first = arguments.first else {
            return try run(Subcommands.run, arguments: [], console: console)
        }
        if first == "--help" || first == "-h" {
            console.output(overview())
            return 0
        }
        if first == "help" {
            let rest = Array(arguments.dropFirst())
            guard let name = rest.first else {
                console.output(overview())
                return 0
            }
            guard rest.count == 1 else { throw CommandLineError(.unexpectedArgument, "unexpected argument '\(rest[1])'") }
            guard let subcommand = Subcommands.named(name) else { throw unknown(name) }
            console.output(subcommand.help())
            return 0
        }
        if first.hasPrefix("-") {
            // Options with no subcommand belong to the default one.
            return try run(Subcommands.run, arguments: arguments, console: console)
        }
        guard let subcommand = Subcommands.named(first) else { throw unknown(first) }
        return try run(subcommand, arguments: Array(arguments.dropFirst()), console: console)
    }

    static func run(_ subcommand: Subcommand, arguments: [String], console: Console) throws(CommandLineError) -> Int32 {
        let parsed = try ParsedArguments(arguments, options: subcommand.options + [.help])
        if parsed.flags.contains("help") {
            console.output(subcommand.help())
            return 0
        }
        return try subcommand.run(parsed, console)
    }

    static func unknown(_ name: String) -> CommandLineError {
        CommandLineError(.unknownSubcommand, "unknown subcommand '\(name)' (see 'dedupe-bench --help')")
    }

    /// The top-level help.
    static func overview() -> String {
        var text = """
        OVERVIEW: Compare de-duplication strategies for iOS push-notification routing.

        USAGE: dedupe-bench [<subcommand>] [options]

        With no subcommand, runs the default suite ('run') and writes the reports to Reports/.

        SUBCOMMANDS:

        """
        let visible = Subcommands.all
        let width = visible.map(\.name.count).max() ?? 0
        for subcommand in visible {
            text += "  " + subcommand.name + String(repeating: " ", count: width - subcommand.name.count + 2)
            text += subcommand.summary + "\n"
        }
        text += """

        See 'dedupe-bench help <subcommand>' or 'dedupe-bench <subcommand> --help' for details.
        Exit codes: 0 success, 1 significant regression found by 'compare', 2 usage or input error.

        """
        return text
    }
}
