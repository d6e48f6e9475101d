@testable import DedupeCommandLine
@testable import DedupeHarness
import Testing
@testable import DedupeCLI

/// `--reference` on run and replay: the published code by default, `none`, or exact strategies
/// named by catalogue id; anything else is one line and exit 2.
@Suite struct ReferenceOptionTests {
    static func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ParsedArguments(arguments, options: Subcommands.replay.options)
    }

    @Test func acceptsThePublishedCodeNoneAndExactStrategies() throws {
        #expect(try SharedOptions.reference(Self.parse([])) == .published)
        #expect(try SharedOptions.reference(Self.parse(["--reference", "none"])) == TimingReference.none)
        #expect(try SharedOptions.reference(Self.parse(["--reference", "window=array-scan,consumed=set"]))
            == .strategies(window: "array-scan", consumed: "set"))
        #expect(Subcommands.run.options.contains { $0.name == "reference" })
    }

    @Test(arguments: [
        ("window=bloom", "invalid value 'window=bloom' for '--reference': the timing reference names no window 'bloom'"),
        ("consumed=fifo-set", "invalid value 'consumed=fifo-set' for '--reference': the timing reference must be exact; consumed set 'fifo-set' is exact-forgets-oldest"),
        ("hash-deque", "invalid value 'hash-deque' for '--reference': expected published, none, or window=ID,consumed=ID"),
    ])
    func refusesWhatIsNotAnExactReference(text: String, message: String) throws {
        let arguments = try Self.parse(["--reference", text])
        #expect(throws: CommandLineError(.badValue, message)) { try SharedOptions.reference(arguments) }
    }
}
