/// Every subcommand, in help order.
enum Subcommands {
    static let memoryPassName = "__memory-pass"

    static let all: [Subcommand] = [run, list, scenarios, replay, exportTrace, compare, memoryPass]

    static func named(_ name: String) -> Subcommand? {
        all.first { $0.name == name }
    }

    /// Hidden: the child process of the memory pass. `DedupeCommand` routes it before parsing,
    /// since its arguments belong to the harness; listed here so `help __memory-pass` works.
    static let memoryPass = Subcommand(
        name: memoryPassName, summary: "Internal: the memory-measuring child process.", positionals: "ARGS...",
        discussion: "", options: [], hidden: true
    ) { _, _ throws(CommandLineError) in 2 }
}
