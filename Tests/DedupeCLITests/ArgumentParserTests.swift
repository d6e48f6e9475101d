@testable import DedupeCommandLine
import DedupeHarness
import Testing
@testable import DedupeCLI

@Suite struct ArgumentParserTests {
    static let seed = OptionSpec("seed", value: "N", help: "")
    static let filter = OptionSpec("filter", value: "F", repeatable: true, help: "")
    static let quick = OptionSpec("quick", help: "")
    static let out = OptionSpec("out", short: "o", value: "DIR", help: "")
    static let options = [seed, filter, quick, out]

    @Test func parsesSpacedInlineShortAndRepeatedForms() throws {
        let parsed = try ParsedArguments(
            ["--seed", "9", "--filter=window=a", "-o", "dir", "pos", "--filter", "mode=b", "--quick", "--", "--seed"],
            options: Self.options)
        #expect(parsed.value(Self.seed) == "9")
        #expect(parsed.values(Self.filter) == ["window=a", "mode=b"])
        #expect(parsed.value(Self.out) == "dir")
        #expect(parsed.has(Self.quick))
        #expect(!parsed.has(.help))
        #expect(parsed.positionals == ["pos", "--seed"])
    }

    @Test func loneDashIsAValueAndAPositional() throws {
        let parsed = try ParsedArguments(["--out", "-", "-"], options: Self.options)
        #expect(parsed.value(Self.out) == "-")
        #expect(parsed.values(Self.filter).isEmpty)
        #expect(parsed.positionals == ["-"])
    }

    @Test(arguments: [
        (["--nope"], CommandLineError.Kind.unknownOption),
        (["-x"], .unknownOption),
        (["-quick"], .unknownOption),
        (["--seed"], .missingValue),
        (["--seed", "--quick"], .missingValue),
        (["--quick=yes"], .badValue),
        (["--seed", "1", "--seed", "2"], .badValue),
        (["--quick", "--quick"], .badValue),
    ])
    func rejects(_ arguments: [String], _ kind: CommandLineError.Kind) {
        #expect(throws: CommandLineError.self) { try ParsedArguments(arguments, options: Self.options) }
        do {
            _ = try ParsedArguments(arguments, options: Self.options)
        } catch {
            #expect(error.kind == kind)
        }
    }

    @Test func convertsValuesAndReportsBadOnes() throws {
        let parsed = try ParsedArguments(["--seed", "12x"], options: Self.options)
        #expect(throws: CommandLineError(.badValue, "invalid value '12x' for '--seed': expected an integer")) {
            try parsed.value(Self.seed, default: 0, expecting: "an integer") { Int($0) }
        }
        let absent = try ParsedArguments([], options: Self.options)
        #expect(try absent.value(Self.seed, default: 3, expecting: "") { Int($0) } == 3)
    }

    @Test func checksPositionalCount() throws {
        let parsed = try ParsedArguments(["a"], options: Self.options)
        #expect(try parsed.positionals(named: ["A"]) == ["a"])
        #expect(throws: CommandLineError(.missingArgument, "missing argument B")) { try parsed.positionals(named: ["A", "B"]) }
        #expect(throws: CommandLineError(.unexpectedArgument, "unexpected argument 'a'")) { try parsed.positionals(named: []) }
    }

    @Test func sharedValueParsersRejectOutOfRangeValues() throws {
        func parse(_ arguments: [String]) throws -> ParsedArguments {
            try ParsedArguments(arguments, options: Subcommands.run.options)
        }
        #expect(throws: CommandLineError.self) { try SharedOptions.repetitions(parse(["--repetitions", "0"])) }
        #expect(throws: CommandLineError.self) { try SharedOptions.windowMilliseconds(parse(["--window-ms", "-1"])) }
        #expect(throws: CommandLineError.self) { try SharedOptions.windowMilliseconds(parse(["--window-ms", "nan"])) }
        #expect(throws: CommandLineError.self) { try CommonOptions.seed(parse(["--seed", "-3"])) }
        #expect(throws: CommandLineError.self) { try SharedOptions.formats(parse(["--format", "csv,pdf"])) }
        #expect(throws: CommandLineError.self) { try SharedOptions.filter(parse(["--filter", "colour=red"])) }
        #expect(throws: CommandLineError.self) { try SharedOptions.filter(parse(["--filter", "window"])) }
        #expect(throws: CommandLineError.self) { try SharedOptions.filter(parse(["--filter", "window=hash-deque,"])) }
        #expect(try SharedOptions.formats(parse(["--format", "md,svg"])) == [.md, .svg])
        #expect(try SharedOptions.repetitions(parse(["--repetitions", "7"])) == 7)
        let filter = try SharedOptions.filter(parse([
            "--filter", "window=ring-buffer,hash-deque", "--filter", "consumed=set", "--filter", "mode=two-layer",
        ]))
        #expect(filter.windows == ["ring-buffer", "hash-deque"])
        #expect(filter.consumedSets == ["set"])
        #expect(filter.modes == ["two-layer"])
        #expect(filter.workloads == nil)
    }

    @Test func filterPatternsSelectIdsAndRefuseWhatCannotMatch() throws {
        func filter(_ clauses: String...) throws -> RunFilter {
            try SharedOptions.filter(ParsedArguments(clauses.flatMap { ["--filter", $0] }, options: Subcommands.run.options))
        }
        func refusal(_ clause: String) -> String? {
            do {
                _ = try filter(clause)
                return nil
            } catch {
                return (error as? CommandLineError)?.message ?? "\(error)"
            }
        }
        #expect(try filter("window=/^(ring|hash)-/").windows == ["ring-buffer", "hash-deque"])
        #expect(try filter("window=hash-deque", "window=/hash-/").windows == ["hash-deque"])
        #expect(try filter("/hash-deque.*fifo-set(capacity=1,2)/").casePatterns == ["hash-deque.*fifo-set(capacity=1,2)"])
        #expect(try filter("case=/x=y/", "case=a").casePatterns == ["x=y"])
        #expect(try filter("case=/x=y/", "case=a").cases == ["a"])
        #expect(refusal("window=/nothing-like-this/") == "invalid value 'window=/nothing-like-this/' for '--filter': /nothing-like-this/ matches no window id (see 'dedupe-bench list')")
        #expect(refusal("case=/(/")?.hasPrefix("invalid value 'case=/(/' for '--filter': not a regular expression: ") == true)
        #expect(refusal("/abc") == "invalid value '/abc' for '--filter': a regular expression is written /REGEX/, and the closing / is missing")
        #expect(refusal("mode=//") == "invalid value 'mode=//' for '--filter': empty regular expression")
        #expect(refusal("colour=/x/")?.contains("unknown key 'colour'") == true)
    }

    /// Arguments that must fail before any benchmark starts; none may trap.
    @Test func neverTrapsOnHostileArguments() {
        let hostile: [[String]] = [
            ["-"], ["="], ["--="], ["--=x"], ["-h=1"], ["run", "--seed=", "x"], ["run", "--seed", "99999999999999999999999"],
            ["compare"], ["compare", "--threshold", "-5", "a", "b"], ["replay"], ["replay", "", ""], ["export-trace"],
            ["help", "nope"], ["help", "run", "extra"], ["\u{0}"], ["run", "--filter", "=,"], ["list", "extra"],
            ["run", "--window-ms", "1e400"], ["run", "--format", ""], ["scenarios", "--out", ""],
        ]
        for arguments in hostile {
            let console = RecordingConsole()
            let status = DedupeCommand.main(arguments: arguments, console: console.console)
            #expect(status == 2, "\(arguments)")
            #expect(console.errorLines.count == 1, "\(arguments): \(console.errorLines)")
            #expect(console.errorLines.first?.hasPrefix("dedupe-bench: error: ") == true)
        }
    }
}
