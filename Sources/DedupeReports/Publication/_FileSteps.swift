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

    /// Moves the finished file `temporary` to `target`, which must be missing or a regular file,
    /// without a window in which something else could be replaced. A missing target is taken
    /// with a rename that fails if an entry appeared meanwhile; an existing one is exchanged with
    /// the temporary in one step, and what was there, now at the temporary path, is removed if it
    /// is a regular file and otherwise exchanged back untouched. Without an exchange (another
    /// file system or C library) it falls back to a checked `rename(2)`, which replaces the entry
    /// and never writes through it.
    mutating func moveFile(_ temporary: String, over target: String) throws(PublicationError) {
        // Twice at most: an entry that appears or vanishes between the check and the move sends
        // the second attempt down the other branch.
        for _ in 0..<2 {
            if let problem = OutputTarget.fileProblem(at: target) { throw PublicationError(problem) }
            if OutputTarget.entryType(at: target) == nil {
                step()
                guard let result = _renameNoReplace(temporary, target) else { return try plainRename(temporary, target) }
                if result == 0 { return }
                let code = errno
                if code == EEXIST { continue }
                if code == EINVAL || code == ENOSYS || code == ENOTSUP { return try plainRename(temporary, target) }
                throw .system("cannot rename \(temporary) to", target, code)
            }
            step()
            guard let result = _exchangePaths(temporary, target) else { return try plainRename(temporary, target) }
            if result != 0 {
                let code = errno
                if code == ENOENT { continue }
                if code == EINVAL || code == ENOSYS || code == ENOTSUP { return try plainRename(temporary, target) }
                throw .system("cannot exchange \(temporary) with", target, code)
            }
            // The temporary path now holds what was at the target: the old file, or an entry
            // that took its place after the check, which goes back as it was.
            let previous = OutputTarget.entryType(at: temporary) ?? 0
            if previous == S_IFREG { return try removeFile(temporary) }
            step()
            _ = _exchangePaths(temporary, target)
            throw PublicationError(OutputTarget.fileRefusal(previous))
        }
        throw PublicationError("the entry there changed while it was being replaced")
    }

    private mutating func plainRename(_ temporary: String, _ target: String) throws(PublicationError) {
        if let problem = OutputTarget.fileProblem(at: target) { throw PublicationError(problem) }
        try rename(temporary, target)
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
package struct PublicationError: LocalizedError, Equatable, CustomStringConvertible {
    package var description: String

    /// The description, so a caller that prints `localizedDescription` gets the reason too.
    package var errorDescription: String? { description }

    package init(_ description: String) {
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

/// `RENAME_NOREPLACE` and `RENAME_EXCHANGE` from `<linux/fs.h>`.
private let renameNoReplace: UInt32 = 1 << 0
private let renameExchange: UInt32 = 1 << 1

/// `renameat2(source, destination, RENAME_NOREPLACE)`: the result (`EEXIST` when something is
/// at `destination`), or `nil` when the C library has no `renameat2`.
func _renameNoReplace(_ source: String, _ destination: String) -> Int32? {
    renameAt2.map { $0(AT_FDCWD, source, AT_FDCWD, destination, renameNoReplace) }
}

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

/// `renamex_np(source, destination, RENAME_EXCL)`.
func _renameNoReplace(_ source: String, _ destination: String) -> Int32? {
    renamex_np(source, destination, UInt32(RENAME_EXCL))
}
#else
func _exchangePaths(_ first: String, _ second: String) -> Int32? { nil }
func _renameNoReplace(_ source: String, _ destination: String) -> Int32? { nil }
#endif
