/// One executable of the package's tooling: its name, its verbs, and the dispatch every one of
/// them shares, which turns every failure into one line on stderr and an exit code.
///
/// `dedupe-bench` holds the user's verbs; the maintainer tools (`dedupe-fuzz`, `dedupe-maintain`)
/// are executables of their own built the same way, so their errors, help and exit codes follow
/// the same conventions (Guides/CLI.md, *Conventions*).
package struct CommandLineTool: Sendable {
    /// The executable's name, which starts every error line and usage line.
    package var name: String
    /// The overview's first line.
    package var summary: String
    /// The verbs, in help order; empty for a tool that is one command (`dedupe-fuzz`).
    package var subcommands: [Subcommand]
    /// What runs with no verb, or with options only; a tool without verbs always runs it.
    package var defaultSubcommand: Subcommand?
    /// The overview's paragraph under the usage line, e.g. what runs with no verb.
    package var introduction: String
    /// The overview's last line: what each exit code means.
    package var exitCodes: String

    package init(
        name: String, summary: String, subcommands: [Subcommand], defaultSubcommand: Subcommand?, introduction: String,
        exitCodes: String
    ) {
        self.name = name
        self.summary = summary
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.introduction = introduction
        self.exitCodes = exitCodes
    }

    /// Runs the tool and returns the process exit code. Never traps on any `arguments`.
    package func main(arguments: [String], console: Console) -> Int32 {
        do {
            return try dispatch(arguments, console: console)
        } catch {
            console.error("\(name): error: \(OneLine.escaped(error.message))\n")
            return 2
        }
    }

    /// Runs the tool on the process's raw argument bytes. An argument that is not valid UTF-8 (a
    /// file name from a non-UTF-8 file system) cannot be passed on as a `String` without
    /// changing it, so it is refused by name rather than reported as a missing file.
    package func main(rawArguments: [[UInt8]], console: Console) -> Int32 {
        var arguments: [String] = []
        for raw in rawArguments {
            guard let argument = String(validating: raw, as: UTF8.self) else {
                console.error(
                    "\(name): error: argument '\(OneLine.escaped(bytes: raw))' is not valid UTF-8 "
                        + "(file names and values must be UTF-8)\n")
                return 2
            }
            arguments.append(argument)
        }
        return main(arguments: arguments, console: console)
    }

    func dispatch(_ arguments: [String], console: Console) throws(CommandLineError) -> Int32 {
        if subcommands.isEmpty, let only = defaultSubcommand {
            return try run(only, arguments: arguments, console: console)
        }
        guard let first = arguments.first else {
            guard let defaultSubcommand else {
                console.output(overview())
                return 0
            }
            return try run(defaultSubcommand, arguments: [], console: console)
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
            guard let subcommand = subcommand(named: name) else { throw unknown(name) }
            console.output(help(subcommand))
            return 0
        }
        if first.hasPrefix("-"), let defaultSubcommand {
            // Options with no subcommand belong to the default one.
            return try run(defaultSubcommand, arguments: arguments, console: console)
        }
        guard let subcommand = subcommand(named: first) else { throw unknown(first) }
        return try run(subcommand, arguments: Array(arguments.dropFirst()), console: console)
    }

    func subcommand(named name: String) -> Subcommand? {
        subcommands.first { $0.name == name }
    }

    func run(_ subcommand: Subcommand, arguments: [String], console: Console) throws(CommandLineError) -> Int32 {
        let parsed = try ParsedArguments(arguments, options: subcommand.options + [.help])
        if parsed.has(.help) {
            console.output(help(subcommand))
            return 0
        }
        return try subcommand.run(parsed, console)
    }

    /// `subcommand`'s `--help`: a tool without verbs is used as `NAME [options]`.
    func help(_ subcommand: Subcommand) -> String {
        subcommand.help(usage: subcommands.isEmpty ? name : name + " " + subcommand.name)
    }

    func unknown(_ verb: String) -> CommandLineError {
        CommandLineError(.unknownSubcommand, "unknown subcommand '\(verb)' (see '\(name) --help')")
    }

    /// The top-level help.
    func overview() -> String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: \(name) "
        text += defaultSubcommand == nil ? "<subcommand> [options]\n\n" : "[<subcommand>] [options]\n\n"
        if !introduction.isEmpty { text += introduction + "\n\n" }
        text += "SUBCOMMANDS:\n"
        let width = subcommands.map(\.name.count).max() ?? 0
        for subcommand in subcommands {
            text += "  " + subcommand.name + String(repeating: " ", count: width - subcommand.name.count + 2)
            text += subcommand.summary + "\n"
        }
        text += """

        See '\(name) help <subcommand>' or '\(name) <subcommand> --help' for details.
        \(exitCodes)

        """
        return text
    }
}
