import Foundation
import Testing
@testable import DedupeReports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct AtomicFileTests {
    @Test func replacesExistingFileWholly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("report.csv")
        try AtomicFile.write(Data("old".utf8), to: target)
        try AtomicFile.write(Data("new".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.csv"])
    }

    /// A link, a FIFO, a socket or a directory at the target is refused, stays exactly as it
    /// was (a link keeps its destination, whose file keeps its contents), and no temporary is
    /// left beside it; the streaming variant never runs its producer.
    @Test func anythingButARegularFileIsRefusedAndKept() throws {
        let directory = try OutputTargetTests.entries()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for name in ["link", "dangling", "fifo", "socket", "directory"] {
            let target = directory.appendingPathComponent(name)
            let type = OutputTarget.entryType(at: target.path)
            #expect(throws: PublicationError(OutputTarget.fileProblem(at: target.path)!)) { try AtomicFile.write(Data("new".utf8), to: target) }
            var produced = false
            #expect(throws: PublicationError.self) { try AtomicFile.write(to: target) { _ in produced = true } }
            #expect(!produced)
            #expect(OutputTarget.entryType(at: target.path) == type, "\(name)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("link").path) == "file")
        #expect(try String(contentsOf: directory.appendingPathComponent("file"), encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
    }

    /// The move itself re-checks what is at the target, in one step with the exchange: a
    /// regular file is replaced and its old contents removed, a missing path is taken, and
    /// anything else is refused without being moved.
    @Test func theMoveReplacesOnlyARegularFile() throws {
        let directory = try OutputTargetTests.entries()
        defer { try? FileManager.default.removeItem(at: directory) }
        var steps = _FileSteps(environment: [:])
        func temporary(_ text: String) throws -> String {
            let path = directory.appendingPathComponent(".partial-\(UUID().uuidString)").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        try steps.moveFile(try temporary("new"), over: directory.appendingPathComponent("file").path)
        #expect(try String(contentsOf: directory.appendingPathComponent("file"), encoding: .utf8) == "new")
        try steps.moveFile(try temporary("fresh"), over: directory.appendingPathComponent("missing").path)
        #expect(try String(contentsOf: directory.appendingPathComponent("missing"), encoding: .utf8) == "fresh")
        let fifo = directory.appendingPathComponent("fifo").path
        let refused = try temporary("never")
        #expect(throws: PublicationError("it is a FIFO (only a regular file or a new path is written)")) { try steps.moveFile(refused, over: fifo) }
        #expect(OutputTarget.entryType(at: fifo) == S_IFIFO)
        #expect(try String(contentsOf: URL(fileURLWithPath: refused), encoding: .utf8) == "never")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".partial-") }.count == 1)
    }
}
