/// Every subcommand, in help order.
enum Subcommands {
    /// The memory pass's child process. Not a `Subcommand`: its arguments belong to the harness
    /// and go through unparsed, and it is not listed in help.
    static let memoryPassName = "__memory-pass"

    static let all: [Subcommand] = [run, list, scenarios, policies, replay, exportTrace, compare]

    /// Verbs for maintainers, not listed in help.
    static let hidden: [Subcommand] = [facadeOverhead]

    static func named(_ name: String) -> Subcommand? {
        (all + hidden).first { $0.name == name }
    }
}
