import Foundation
import Testing
@testable import DedupeReports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `DirectoryPublication` in-process: what a published directory holds after each kind of
/// start (none, a set, an older version's reports, a user's directory, leftovers of a killed
/// run). Kills at every step are `ReportPublicationKillTests` (CLI tests, real processes).
@Suite struct DirectoryPublicationTests {
    /// No process has this id (above any `pid_max`), so its leftovers count as abandoned.
    static let deadPID: pid_t = 2_147_483_646

    static func parent() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("publication-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func contents(_ directory: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path, isDirectory: &isDirectory)
            files[name] = isDirectory.boolValue ? "<dir>" : try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        }
        return files
    }

    static func set(_ names: String..., text: String) -> [(name: String, data: Data)] {
        names.map { ($0, Data(text.utf8)) }
    }

    static func manifest(_ names: String...) -> String {
        DirectoryPublication.manifest(names)
    }

    @Test func firstPublicationCreatesTheDirectoryAndItsParents() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("a/b/out")
        try DirectoryPublication.publish(Self.set("x.md", "y.csv", text: "1"), to: target)
        #expect(try Self.contents(target) == ["x.md": "1", "y.csv": "1", ".dedupe-bench-set": Self.manifest("x.md", "y.csv")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.appendingPathComponent("a/b").path) == ["out"])
    }

    /// The old set goes as a whole, even files the new set does not have; a user's file and
    /// directory stay.
    @Test func republishingReplacesTheSetAndKeepsOtherEntries() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("out")
        try DirectoryPublication.publish(Self.set("x.md", "y.csv", "z.svg", text: "old"), to: target)
        try Data("mine".utf8).write(to: target.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: target.appendingPathComponent("drafts"), withIntermediateDirectories: false)
        try DirectoryPublication.publish(Self.set("x.md", text: "new"), to: target)
        #expect(try Self.contents(target) == [
            "x.md": "new", ".dedupe-bench-set": Self.manifest("x.md"), "notes.txt": "mine", "drafts": "<dir>",
        ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["out"])
    }

    /// With a manifest, only the listed names and the new set's go: a user's file that happens
    /// to be named like a report of another format stays.
    @Test func manifestDecidesWhatIsAReport() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("out")
        try DirectoryPublication.publish(Self.set("report.md", text: "old"), to: target, legacyNames: ["report.md", "sweeps.csv"])
        try Data("mine".utf8).write(to: target.appendingPathComponent("sweeps.csv"))
        try DirectoryPublication.publish(Self.set("report.md", text: "new"), to: target, legacyNames: ["report.md", "sweeps.csv"])
        #expect(try Self.contents(target) == ["report.md": "new", ".dedupe-bench-set": Self.manifest("report.md"), "sweeps.csv": "mine"])
    }

    /// An older version's directory has no manifest: the names it could have written go,
    /// anything else stays.
    @Test func directoryWithoutManifestKeepsWhatIsNotAReport() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        for name in ["report.md", "sweeps.csv", "README.txt"] { try Data("old".utf8).write(to: target.appendingPathComponent(name)) }
        try DirectoryPublication.publish(Self.set("report.md", text: "new"), to: target, legacyNames: ["report.md", "sweeps.csv"])
        #expect(try Self.contents(target) == ["report.md": "new", ".dedupe-bench-set": Self.manifest("report.md"), "README.txt": "old"])
    }

    /// Three leftovers of killed runs: a staging directory killed while writing its manifest, an
    /// old set swapped out (with a user's file in it) and not yet removed, and one of a running
    /// process, which is left alone.
    @Test func leftoversOfKilledRunsAreClearedAtTheNextStart() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("out")
        try DirectoryPublication.publish(Self.set("x.md", text: "current"), to: target)

        let partial = parent.appendingPathComponent(".out.dedupe-bench-\(Self.deadPID).staging")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: false)
        try Data().write(to: partial.appendingPathComponent(DirectoryPublication.manifestName))
        try Data("half".utf8).write(to: partial.appendingPathComponent("x.md"))
        let swapped = parent.appendingPathComponent(".out.dedupe-bench-\(Self.deadPID - 1).staging")
        try FileManager.default.createDirectory(at: swapped, withIntermediateDirectories: false)
        try Data(Self.manifest("x.md", "old.csv").utf8).write(to: swapped.appendingPathComponent(DirectoryPublication.manifestName))
        for name in ["x.md", "old.csv"] { try Data("older".utf8).write(to: swapped.appendingPathComponent(name)) }
        try Data("mine".utf8).write(to: swapped.appendingPathComponent("notes.txt"))
        let live = parent.appendingPathComponent(".out.dedupe-bench-\(getppid()).staging")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: false)

        try DirectoryPublication.publish(Self.set("x.md", text: "new"), to: target)
        #expect(try Self.contents(target) == ["x.md": "new", ".dedupe-bench-set": Self.manifest("x.md"), "notes.txt": "mine"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: parent.path)) == ["out", live.lastPathComponent])
    }

    /// Killed between the two renames of the fallback (no exchange): the target is missing and
    /// the previous set sits aside; it is put back before anything else.
    @Test func previousSetAsideIsRestoredWhenTheTargetIsMissing() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let target = parent.appendingPathComponent("out")
        let previous = parent.appendingPathComponent(".out.dedupe-bench-\(Self.deadPID).previous")
        try DirectoryPublication.publish(Self.set("x.md", text: "previous"), to: previous)
        try Data("mine".utf8).write(to: previous.appendingPathComponent("notes.txt"))
        var steps = _FileSteps(environment: [:])
        let warnings = try DirectoryPublication.recoverLeftovers(
            beside: target, ownership: .init(newNames: [], legacyNames: []), steps: &steps)
        #expect(warnings.isEmpty)
        #expect(try Self.contents(target) == ["x.md": "previous", ".dedupe-bench-set": Self.manifest("x.md"), "notes.txt": "mine"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["out"])
    }

    /// A symbolic link at the target is refused, whatever it points at, and stays as it was: the
    /// link, and the directory it names with its set.
    @Test func aSymbolicLinkAtTheTargetIsRefusedAndKept() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let real = parent.appendingPathComponent("real")
        try DirectoryPublication.publish(Self.set("x.md", text: "old"), to: real)
        for (name, destination) in [("link", real.path), ("dangling", parent.appendingPathComponent("nowhere").path)] {
            let link = parent.appendingPathComponent(name)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: destination)
            #expect(throws: PublicationError("it is a symbolic link (only a directory or a new path takes the reports)")) {
                try DirectoryPublication.publish(Self.set("x.md", text: "new"), to: link)
            }
            #expect(throws: PublicationError.self) { try DirectoryPublication.probe(link) }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == destination)
        }
        #expect(try Self.contents(real)["x.md"] == "old")
        #expect(!FileManager.default.fileExists(atPath: parent.appendingPathComponent("nowhere").path))
    }

    /// A FIFO at the target is refused before anything is staged, and stays a FIFO.
    @Test func aFIFOAtTheTargetIsRefusedAndKept() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let fifo = parent.appendingPathComponent("out")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: PublicationError("it is a FIFO (only a directory or a new path takes the reports)")) {
            try DirectoryPublication.publish(Self.set("x.md", text: "new"), to: fifo)
        }
        #expect(OutputTarget.entryType(at: fifo.path) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["out"])
    }

    @Test func unusableTargetsAreRefused() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let file = parent.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: PublicationError.self) { try DirectoryPublication.publish([], to: file) }
        #expect(throws: PublicationError.self) { try DirectoryPublication.checkedTarget(URL(fileURLWithPath: "/")) }
        #expect(throws: PublicationError("cannot publish to the current directory (it is replaced as a whole); name another")) {
            try DirectoryPublication.checkedTarget(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        }
        for name in ["", "a/b", "..", DirectoryPublication.manifestName] {
            #expect(throws: PublicationError.self) { try DirectoryPublication.publish([(name, Data())], to: parent.appendingPathComponent("out")) }
        }
        #expect(throws: PublicationError.self) {
            try DirectoryPublication.publish(Self.set("x", "x", text: ""), to: parent.appendingPathComponent("out"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["file"])
    }

    @Test func manifestReadsBackOnlyWhenComplete() throws {
        let parent = try Self.parent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let path = parent.appendingPathComponent("m").path
        #expect(DirectoryPublication.readManifest(path) == .absent)
        let text = DirectoryPublication.manifest(["a", "b"])
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(DirectoryPublication.readManifest(path) == .complete(["a", "b"]))
        for cut in [0, 10, text.utf8.count - 1] {
            try Data(text.utf8.prefix(cut)).write(to: URL(fileURLWithPath: path))
            #expect(DirectoryPublication.readManifest(path) == .partial, "\(cut)")
        }
    }
}
