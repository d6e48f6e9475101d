import DedupeLifecycle

/// The kill sweep over the router's effects: what a process killed at every step of a routed push
/// loses and shows twice, per router configuration. See `Guides/Router.md` § Reserve, then commit.
extension PolicyReport {
    static let killSweepSetup = "a push superseded by a second one, the process killed after each effect of the router's "
        + "core in turn, both pushes replayed at the next launch"

    /// One line per configuration swept, for the terminal; empty when the run has no sweep.
    static func killSweepText(_ policies: PolicyResults) -> String {
        guard let sweeps = policies.killSweep, !sweeps.isEmpty else { return "" }
        return "kill sweep over the router's effects (\(killSweepSetup)):\n" + sweeps.map {
            "  \($0.configuration) (\($0.consume)): \($0.tapsLost) taps lost, \($0.duplicatesShown) duplicates shown, "
                + "of \($0.killPoints) kill points\n"
        }.joined()
    }

    /// The section of `policies.md`; empty when the run has no sweep.
    static func killSweepMarkdown(_ policies: PolicyResults) -> String {
        guard let sweeps = policies.killSweep, !sweeps.isEmpty else { return "" }
        var table = MarkdownTable(
            header: ["Router configuration", "Consume timing", "Kill points", "Taps lost", "Duplicates shown"], alignRight: [2, 3, 4])
        table.rows = sweeps.map {
            [$0.configuration, "`\($0.consume)`", String($0.killPoints), String($0.tapsLost), String($0.duplicatesShown)]
        }
        return "## A kill at every step of a routed push\n\nThe shipped router core, \(killSweepSetup):\n\n" + table.render() + "\n"
    }

    /// One sentence for `report.md`; empty when the run has no sweep.
    static func killSweepSummary(_ policies: PolicyResults) -> String {
        guard let sweeps = policies.killSweep, !sweeps.isEmpty else { return "" }
        return "Killed at every step of a routed push (details in [policies.md](policies.md)): " + sweeps.map {
            "the \($0.configuration) router (`\($0.consume)`) loses the tap at \($0.tapsLost) and shows a screen twice at "
                + "\($0.duplicatesShown) of \($0.killPoints) kill points"
        }.joined(separator: "; ") + ".\n"
    }
}
