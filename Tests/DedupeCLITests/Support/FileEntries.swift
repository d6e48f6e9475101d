import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Entries of every kind a written path may name, for the output-refusal tests (the same set
/// `DedupeReportsTests.OutputTargetTests` makes for the library).
enum FileEntries {
    /// A directory holding one entry of each kind: `file`, `directory`, `link` (to `file`),
    /// `dangling` (a link to nothing), `fifo` and `socket`.
    static func make() throws -> URL {
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
}
