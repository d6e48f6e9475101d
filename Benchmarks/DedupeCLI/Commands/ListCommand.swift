import DedupeCommandLine

extension Subcommands {
    static let list = Subcommand(
        name: "list", summary: "List strategies, workloads, modes and metrics.", positionals: "",
        discussion: "The ids are the ones '--filter' accepts.", options: []
    ) { arguments, console throws(CommandLineError) in
        _ = try arguments.positionals(named: [])
        var sections: [(String, [Catalogue.Entry])] = [
            ("Windows (layer 1, --filter window=...)", Catalogue.windows),
            ("Consumed sets (layer 2, --filter consumed=...)", Catalogue.consumedSets),
            ("Workloads (--filter workload=...)", Catalogue.workloads),
            ("Modes (--filter mode=...)", Catalogue.modes),
            ("Metrics", Catalogue.metrics),
        ]
        if !Catalogue.pipelines.isEmpty {
            sections.insert(("Whole pipelines (both layers, in every two-layer mode)", Catalogue.pipelines), at: 2)
        }
        var text = ""
        for (title, entries) in sections {
            text += title + ":\n"
            let width = entries.map(\.id.count).max() ?? 0
            for entry in entries {
                text += "  " + entry.id + String(repeating: " ", count: width - entry.id.count + 2) + entry.summary + "\n"
            }
            text += "\n"
        }
        console.output(text)
        return 0
    }
}
