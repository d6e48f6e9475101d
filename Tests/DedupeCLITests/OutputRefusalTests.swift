@testable import DedupeCommandLine
import DedupeReports
import Foundation
import Testing
@testable import DedupeCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every path the tool writes (`--out`, `--decisions`, `compare --out`, `export-trace --out`)
/// refuses a symbolic link, a FIFO, a socket and a device in one line with exit 2, and leaves
/// it exactly as it was. (A device is `/dev/null`, which the refusal never opens; making one
/// needs root.)
@Suite struct OutputRefusalTests {
    /// The entries to point each option at, by name in the directory of
    /// `FileEntries.make()` (a link to a file and a link to nothing, a FIFO, a
    /// socket), plus `/dev/null`.
    static let targets = ["link", "dangling", "fifo", "socket", "/dev/null"]

    static func path(_ target: String, in directory: URL) -> String {
        target.hasPrefix("/") ? target : directory.appendingPathComponent(target).path
    }

    /// What identifies the entry at `path` without following it: its type, its link
    /// destination, its size and modification time.
    static func fingerprint(_ path: String) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "missing" }
        let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
        return "\(status.st_mode) \(status.st_ino) \(status.st_size) \(destination)"
    }

    static func refuses(_ arguments: [String], target: String, saying fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = fingerprint(target)
        let console = RecordingConsole()
        let status = DedupeCommand.main(arguments: arguments, console: console.console)
        #expect(status == 2, "\(arguments)", sourceLocation: sourceLocation)
        #expect(console.errorLines.count == 1, "\(console.errorLines)", sourceLocation: sourceLocation)
        #expect(console.errorLines.first?.contains(fragment) == true, "\(console.errorLines)", sourceLocation: sourceLocation)
        #expect(fingerprint(target) == before, "\(target) changed", sourceLocation: sourceLocation)
    }

    static func kind(_ target: String) -> String {
        switch target {
        case "link", "dangling": return "a symbolic link"
        case "fifo": return "a FIFO"
        case "socket": return "a socket"
        default: return "a character device"
        }
    }

    @Test(arguments: targets)
    func eachFileOptionRefusesTheTarget(_ name: String) throws {
        let directory = try FileEntries.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = Self.path(name, in: directory)
        let trace = BinaryRunner.fixture("replay-small.csv").path
        let refusal = "it is \(Self.kind(name)) (only a regular file or a new path is written)"
        Self.refuses(["replay", trace, "--allow-debug", "--out", directory.appendingPathComponent("out").path, "--decisions", target],
                     target: target, saying: "invalid value '\(target)' for '--decisions': \(refusal)")
        Self.refuses(["compare", trace, trace, "--out", target], target: target, saying: "invalid value '\(target)' for '--out': \(refusal)")
        Self.refuses(["export-trace", "same-payload-twice", "--out", target], target: target, saying: "cannot write '\(target)': \(refusal)")
        #expect(try String(contentsOf: directory.appendingPathComponent("file"), encoding: .utf8) == "keep")
    }

    @Test(arguments: targets)
    func eachDirectoryOptionRefusesTheTarget(_ name: String) throws {
        let directory = try FileEntries.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = Self.path(name, in: directory)
        let refusal = "invalid value '\(target)' for '--out': it is \(Self.kind(name)) (only a directory or a new path takes the reports)"
        Self.refuses(["replay", BinaryRunner.fixture("replay-small.csv").path, "--allow-debug", "--out", target], target: target, saying: refusal)
        Self.refuses(["scenarios", "--out", target], target: target, saying: refusal)
        Self.refuses(["policies", "--out", target], target: target, saying: refusal)
    }

    /// A link to a directory is refused too: publishing would swap the link away or write
    /// where the command line did not say.
    @Test func aLinkToADirectoryIsRefused() throws {
        let directory = try FileEntries.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("reports").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "directory")
        Self.refuses(["scenarios", "--out", link], target: link, saying: "it is a symbolic link")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("directory").path).isEmpty)
    }

    /// The same through the binary, for the exit code a shell sees: `--decisions` at a FIFO
    /// used to replace it with a regular file and exit 0.
    @Test func theBinaryRefusesADecisionsFIFO() throws {
        let directory = try FileEntries.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo").path
        let outcome = try BinaryRunner.run([
            "replay", BinaryRunner.fixture("replay-small.csv").path, "--allow-debug", "--out", directory.appendingPathComponent("out").path,
            "--decisions", fifo,
        ])
        #expect(outcome.status == 2)
        #expect(outcome.error == "dedupe-bench: error: invalid value '\(fifo)' for '--decisions': it is a FIFO (only a regular file or a new path is written)\n")
        #expect(OutputTarget.fileProblem(at: fifo)?.contains("FIFO") == true)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out").path))
    }

    /// A regular file is still replaced, and `--decisions` truncates it before writing.
    @Test func aRegularFileIsReplaced() throws {
        let directory = try FileEntries.make()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("file")
        let console = RecordingConsole()
        #expect(DedupeCommand.main(arguments: ["export-trace", "same-payload-twice", "--out", file.path], console: console.console) == 0)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("time_ms,kind,envelope"))
        let decisions = try #require(try SharedOptions.decisionsFile(ParsedArguments(["--decisions", file.path], options: [SharedOptions.decisions])))
        decisions.close()
        #expect(try String(contentsOf: file, encoding: .utf8) == DecisionsCSV.headerLine)
    }
}
