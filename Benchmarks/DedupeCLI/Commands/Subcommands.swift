/// Every subcommand, in help order.
enum Subcommands {
    static let all: [Subcommand] = [run, list, scenarios, policies, verify, replay, exportTrace, compare]

    /// Verbs for maintainers, not listed in help.
    static let hidden: [Subcommand] = [facadeOverhead, recorderOverhead, fuzz, liveSetSweep]

    static func named(_ name: String) -> Subcommand? {
        (all + hidden).first { $0.name == name }
    }
}
