import Foundation
import Testing
@testable import DedupeReports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every kind of entry a written path can name, made under a temporary directory (no device
/// is created: that needs root; `/dev/null` stands for one, and is only inspected).
@Suite struct OutputTargetTests {
    /// A directory holding one entry of each kind: `file`, `directory`, `link` (to `file`),
    /// `dangling` (a link to nothing), `fifo` and `socket`.
    static func entries() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("targets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("directory"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: directory.appendingPathComponent("file"))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link").path, withDestinationPath: "file")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("dangling").path, withDestinationPath: "nowhere")
        try #require(mkfifo(directory.appendingPathComponent("fifo").path, 0o600) == 0)
        try makeSocket(at: directory.appendingPathComponent("socket").path)
        return directory
    }

    /// Binds a Unix-domain socket at `path` (the socket file stays after the descriptor closes).
    static func makeSocket(at path: String) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
    }

    @Test func fileTargetsAreANewPathOrARegularFile() throws {
        let directory = try Self.entries()
        defer { try? FileManager.default.removeItem(at: directory) }
        func problem(_ name: String) -> String? { OutputTarget.fileProblem(at: directory.appendingPathComponent(name).path) }
        #expect(problem("missing") == nil)
        #expect(problem("file") == nil)
        #expect(problem("directory") == "it is a directory (only a regular file or a new path is written)")
        #expect(problem("link") == "it is a symbolic link (only a regular file or a new path is written)")
        #expect(problem("dangling") == "it is a symbolic link (only a regular file or a new path is written)")
        #expect(problem("fifo") == "it is a FIFO (only a regular file or a new path is written)")
        #expect(problem("socket") == "it is a socket (only a regular file or a new path is written)")
        #expect(OutputTarget.fileProblem(at: "/dev/null") == "it is a character device (only a regular file or a new path is written)")
    }

    @Test func directoryTargetsAreANewPathOrADirectory() throws {
        let directory = try Self.entries()
        defer { try? FileManager.default.removeItem(at: directory) }
        func problem(_ name: String) -> String? { OutputTarget.directoryProblem(at: directory.appendingPathComponent(name).path) }
        #expect(problem("missing") == nil)
        #expect(problem("directory") == nil)
        for (name, kind) in [("file", "a regular file"), ("link", "a symbolic link"), ("fifo", "a FIFO"), ("socket", "a socket")] {
            #expect(problem(name) == "it is \(kind) (only a directory or a new path takes the reports)")
        }
    }
}
