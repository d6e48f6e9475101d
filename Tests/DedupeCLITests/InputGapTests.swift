@testable import DedupeCommandLine
import DedupeDecision
@testable import DedupeHarness
import DedupeReports
import Foundation
import Testing
@testable import DedupeCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs that used to slip through or mislead: each gives one clear line and exit 2.
@Suite struct InputGapTests {
    static func fails(_ arguments: [String], saying fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let console = RecordingConsole()
        let status = DedupeCommand.main(arguments: arguments, console: console.console)
        #expect(status == 2, "\(arguments)", sourceLocation: sourceLocation)
        #expect(console.errorLines.count == 1, "\(arguments): \(console.errorLines)", sourceLocation: sourceLocation)
        #expect(console.errorLines.first?.contains(fragment) == true, "\(console.errorLines)", sourceLocation: sourceLocation)
    }

    /// Swift's integer and floating-point initializers take signs, exponents and hexadecimal;
    /// the options take plain decimals only.
    @Test func numbersArePlainDecimals() {
        for seed in ["+5", "-5", " 5", "5 ", "0x5", "٥"] {
            Self.fails(["export-trace", "same-payload-twice", "--seed=\(seed)"], saying: "for '--seed'")
        }
        Self.fails(["run", "--repetitions=+3"], saying: "for '--repetitions'")
        for window in ["+5", "1e3", "0x10", "inf", "nan", ".5", "5.", "-0"] {
            Self.fails(["run", "--window-ms=\(window)"], saying: "for '--window-ms'")
        }
        Self.fails(["compare", "--threshold=+5", "a", "b"], saying: "for '--threshold'")
        Self.fails(["compare", "--alpha=5e-2", "a", "b"], saying: "for '--alpha'")
        #expect(CommonOptions.integer("18446744073709551615") == UInt64.max)
        #expect((CommonOptions.integer("18446744073709551616") as UInt64?) == nil)
        #expect(CommonOptions.decimal("0.5") == 0.5 && CommonOptions.decimal("500") == 500)
        let console = RecordingConsole()
        #expect(DedupeCommand.main(arguments: ["export-trace", "same-payload-twice", "--seed", "5"], console: console.console) == 0)
    }

    /// Opening a FIFO with no writer blocks forever, so it is refused before it is opened.
    @Test func replayRefusesAnythingButARegularFile() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("trace.csv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        Self.fails(["replay", fifo], saying: "cannot read '\(fifo)': not a regular file")
        Self.fails(["compare", fifo, fifo], saying: "not a regular file")
        Self.fails(["replay", "/dev/null"], saying: "not a regular file")
        Self.fails(["replay", directory.path], saying: "is a directory")
        Self.fails(["replay", directory.appendingPathComponent("missing.csv").path], saying: "no such file")
    }

    /// `replay -` reads standard input (here a pipe from the shell).
    @Test func replayReadsStandardInput() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", #"exec "$0" replay - --allow-debug --repetitions 1 --quiet --filter window=published-literal --filter consumed=set --format json --out "$1" < "$2""#,
            BinaryRunner.executable.path, directory.appendingPathComponent("out").path, BinaryRunner.fixture("replay-small.csv").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let results = try ResultsJSON.decode(Data(contentsOf: directory.appendingPathComponent("out/results.json")))
        #expect(results.settings.traceFile == "stdin")
        #expect(results.cases.contains { $0.correctness?.newEvents == 3 })
    }

    /// A newline or an escape sequence in a name the user gave cannot split the error line or
    /// drive the terminal.
    @Test func controlCharactersInNamesAreEscaped() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        Self.fails(["export-trace", "no\nsuch\u{1B}[2J"], saying: "unknown scenario 'no\\nsuch\\u{1B}[2J'")
        let file = directory.appendingPathComponent("a\nfile")
        try Data().write(to: file)
        Self.fails(["run", "--out", file.path], saying: "a\\nfile")
        let trace = directory.appendingPathComponent("bad\r\nname.csv")
        try FileManager.default.copyItem(at: BinaryRunner.fixture("malformed-bad-number.csv"), to: trace)
        Self.fails(["replay", trace.path], saying: "bad\\r\\nname.csv:4: bad number")
        #expect(OneLine.escaped("tab\there\u{7F}\u{85}") == "tab\\there\\u{7F}\\u{85}")
        #expect(OneLine.escaped("plain ü") == "plain ü")
    }

    /// `CommandLine.arguments` would repair the bytes into another name, which then does not
    /// exist; the raw bytes are refused by name instead.
    @Test func argumentThatIsNotUTF8IsNamed() throws {
        let console = RecordingConsole()
        let status = DedupeCommand.main(rawArguments: [Array("replay".utf8), [0x62, 0xFF, 0x2E, 0x63]], console: console.console)
        #expect(status == 2)
        #expect(console.errorLines == ["dedupe-bench: error: argument 'b\\xff.c' is not valid UTF-8 (file names and values must be UTF-8)"])

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" replay "$(printf 'trace\377.csv')""#, BinaryRunner.executable.path]
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text == "dedupe-bench: error: argument 'trace\\xff.csv' is not valid UTF-8 (file names and values must be UTF-8)\n")
    }

    /// A hand-edited results file: no samples, a zero sample, a negative sample.
    @Test func compareValidatesItsInputs() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = ForkedResults.make()
        let index = try #require(good.cases.firstIndex { $0.timing != nil })
        let goodFile = directory.appendingPathComponent("good.json")
        try ResultsJSON.encode(good).write(to: goodFile)
        let edits: [(String, (inout TimingResult) -> Void, String)] = [
            ("empty", { $0.samplesNanosecondsPerEvent = [] }, "has timing but no samples"),
            ("zero", { $0.samplesNanosecondsPerEvent[0] = 0 }, "timing.samplesNanosecondsPerEvent[0] is 0.0 ns/event"),
            ("negative", { $0.samplesNanosecondsPerEvent[1] = -3 }, "timing.samplesNanosecondsPerEvent[1] is -3.0 ns/event"),
        ]
        for (name, edit, fragment) in edits {
            var bad = good
            edit(&bad.cases[index].timing!)
            let file = directory.appendingPathComponent("\(name).json")
            try ResultsJSON.encode(bad).write(to: file)
            Self.fails(["compare", goodFile.path, file.path], saying: "\(file.path): cases[\(index)] (")
            Self.fails(["compare", file.path, goodFile.path], saying: fragment)
        }
        var future = good
        future.schemaVersion += 1
        #expect(ResultsComparison.pairProblem(baseline: good, current: future)?.contains("different results schemas") == true)
        #expect(ResultsComparison.pairProblem(baseline: good, current: good) == nil)
        #expect(ResultsComparison.inputProblem(in: good) == nil)
    }
}
