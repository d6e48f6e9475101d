import DedupeMeasurement
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running store-writer child (``StoreWriterChild``), seen from the parent: its acknowledged
/// indices arrive on a pipe as they are written, so the parent can kill it mid-stream.
///
/// Spawned with `posix_spawn`, stdin and stdout on pipes whose parent ends are close-on-exec (two
/// children at once must not hold each other's pipes open), stderr to a file for the message of
/// a child that failed.
///
/// `@unchecked Sendable`: one thread at a time reads a child's pipe (two writers: one thread
/// each), and the parent reads `acknowledged` only after that thread has finished.
final class StoreWriterProcess: @unchecked Sendable {
    let pid: pid_t
    private let output: Int32
    private let errorFile: String
    private var pending: [UInt8] = []
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var reachedEnd = false
    /// Indices acknowledged so far, in order.
    private(set) var acknowledged: [Int] = []

    /// Starts `writer` with `request` on its stdin.
    init(writer: StoreWriterCommand, request: StoreWriterRequest, errorFile: String) throws(MeasurementError) {
        signal(SIGPIPE, SIG_IGN)
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0 else { throw .stageFailed("stores: pipe failed: errno \(errno)") }
        guard pipe(&output) == 0 else {
            close(input[0])
            close(input[1])
            throw .stageFailed("stores: pipe failed: errno \(errno)")
        }
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let arguments = [writer.executable] + writer.arguments
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, writer.executable, &actions, nil, &argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw .stageFailed("stores: cannot start \(writer.executable): errno \(spawned)")
        }
        pid = child
        self.output = output[0]
        self.errorFile = errorFile
        let data = (try? JSONEncoder().encode(request)) ?? Data()
        // A few hundred bytes: the pipe takes them whole, whatever the child does.
        _ = data.withUnsafeBytes { write(input[1], $0.baseAddress, $0.count) }
        close(input[1])
    }

    deinit {
        close(output)
    }

    /// Reads until at least `count` indices are acknowledged or the child closed its stdout.
    /// Returns whether `count` was reached.
    @discardableResult
    func read(until count: Int) -> Bool {
        while acknowledged.count < count && !reachedEnd { readOnce() }
        return acknowledged.count >= count
    }

    /// Reads everything the child wrote, to the end of its stdout.
    func drain() {
        while !reachedEnd { readOnce() }
    }

    /// Sends SIGKILL.
    func kill() {
        _ = Foundation.kill(pid, SIGKILL)
    }

    /// Waits for the child to end: its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The first line of what the child wrote to stderr.
    var errorLine: String {
        let text = (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
        return String(text.split(separator: "\n").first ?? "").prefix(300).description
    }

    private func readOnce() {
        let count = buffer.withUnsafeMutableBytes { Foundation.read(output, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { return }
        guard count > 0 else {
            reachedEnd = true
            return
        }
        for byte in buffer[0..<count] {
            if byte == UInt8(ascii: "\n") {
                acknowledged.append(pending.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
    }
}
