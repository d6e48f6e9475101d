import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system operations of a publication, each one a numbered step, so a test can kill
/// the process at any of them.
///
/// `DEDUPE_BENCH_TEST_KILL_AT_STEP=N` (test-only, undocumented in `--help`) makes the process
/// SIGKILL itself just before its N-th mutating step (1-based), counted over every publication in
/// the process. A kill before step N + 1 is the same as a kill right after step N, so the sweep
/// N = 1, 2, … covers a kill after every write, fsync, rename and removal.
struct _FileSteps {
    static let killVariable = "DEDUPE_BENCH_TEST_KILL_AT_STEP"

    private var taken = 0
    private let killAt: Int?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        killAt = environment[Self.killVariable].flatMap { Int($0) }
    }

    private mutating func step() {
        taken += 1
        if taken == killAt { kill(getpid(), SIGKILL) }
    }

    mutating func makeDirectory(_ path: String) throws(PublicationError) {
        step()
        guard mkdir(path, 0o777) == 0 else { throw .system("cannot create", path, errno) }
    }

    /// Creates `path` (which must not exist), writes `data` and flushes it to the disk.
    mutating func writeSynced(_ data: Data, to path: String) throws(PublicationError) {
        step()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .system("cannot create", path, errno) }
        defer { close(descriptor) }
        step()
        let failure = data.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .system("cannot write", path, failure) }
        try sync(descriptor: descriptor, path: path)
    }

    /// Flushes the file or directory at `path` (for a directory: its entries) to the disk.
    mutating func sync(_ path: String) throws(PublicationError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("cannot open", path, errno) }
        defer { close(descriptor) }
        try sync(descriptor: descriptor, path: path)
    }

    private mutating func sync(descriptor: Int32, path: String) throws(PublicationError) {
        step()
        guard fsync(descriptor) == 0 else { throw .system("cannot flush", path, errno) }
    }

    mutating func rename(_ source: String, _ destination: String) throws(PublicationError) {
        step()
        #if canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #else
        let result = Darwin.rename(source, destination)
        #endif
        guard result == 0 else { throw .system("cannot rename \(source) to", destination, errno) }
    }

    /// Swaps two existing paths in one atomic step, or returns `false` when the file system
    /// cannot (the caller then falls back to two renames).
    mutating func exchange(_ first: String, _ second: String) throws(PublicationError) -> Bool {
        step()
        guard let result = _exchangePaths(first, second) else { return false }
        if result == 0 { return true }
        let code = errno
        if code == EINVAL || code == ENOSYS || code == ENOTSUP { return false }
        throw .system("cannot exchange \(first) with", second, code)
    }

    mutating func removeFile(_ path: String) throws(PublicationError) {
        step()
        guard unlink(path) == 0 else { throw .system("cannot remove", path, errno) }
    }

    mutating func removeDirectory(_ path: String) throws(PublicationError) {
        step()
        guard rmdir(path) == 0 else { throw .system("cannot remove", path, errno) }
    }
}

/// A publication that could not be carried out, with the path and the system's reason.
public struct PublicationError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    static func system(_ action: String, _ path: String, _ code: Int32) -> PublicationError {
        PublicationError("\(action) \(path): \(String(cString: strerror(code)))")
    }
}

#if canImport(Glibc)
/// glibc's `renameat2(2)` wrapper (2.28+), looked up at run time: the Glibc module does not
/// export it (it is declared only under `_GNU_SOURCE`).
private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

private let renameAt2: RenameAt2? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
    return unsafeBitCast(symbol, to: RenameAt2.self)
}()

/// `RENAME_EXCHANGE` from `<linux/fs.h>`.
private let renameExchange: UInt32 = 1 << 1

/// `renameat2(first, second, RENAME_EXCHANGE)`: the result, or `nil` when the C library has no
/// `renameat2`.
func _exchangePaths(_ first: String, _ second: String) -> Int32? {
    renameAt2.map { $0(AT_FDCWD, first, AT_FDCWD, second, renameExchange) }
}
#elseif canImport(Darwin)
/// `renamex_np(first, second, RENAME_SWAP)` (macOS 10.12+, APFS and HFS+).
func _exchangePaths(_ first: String, _ second: String) -> Int32? {
    renamex_np(first, second, UInt32(RENAME_SWAP))
}
#else
func _exchangePaths(_ first: String, _ second: String) -> Int32? { nil }
#endif
