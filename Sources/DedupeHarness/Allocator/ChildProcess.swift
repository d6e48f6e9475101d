import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a child process: the harness's timing forks and its memory pass (with jemalloc
/// preloaded, so timings in the parent keep the platform allocator) go through ``HarnessChild``.
///
///     if let jemalloc = ChildProcess.jemallocLibraryPath() {
///         let child = try ChildProcess.run(
///             executable: ChildProcess.currentExecutablePath(),
///             arguments: [HarnessChild.verb, "memory"],
///             environment: ChildProcess.preloadEnvironment(library: jemalloc),
///             input: request, stage: "memory pass", timeoutSeconds: 900)
///     }
package enum ChildProcess {
    /// A child that did not finish in time; it was killed. The message names the stage.
    package struct Timeout: Error, Equatable, CustomStringConvertible {
        /// What the child was doing, e.g. `memory pass`.
        package var stage: String
        package var seconds: Double

        package var description: String {
            "\(stage): the child process did not finish within \(String(format: "%g", seconds)) s and was killed"
        }
    }

    /// Runs `executable` with `arguments`, this process's environment plus `environment` (which
    /// wins on conflicts) and `input` on stdin, and returns its exit status, stdout and stderr.
    ///
    /// Stdin, stdout and stderr are served by three threads at once, so neither a large input
    /// nor a large output can block the child on a full pipe. A child killed by a signal reports
    /// `128 + signal`, as a shell does. A child that exits without reading all of `input` is not
    /// an error: the first call with input makes this process ignore SIGPIPE from then on, so
    /// such a write fails with `EPIPE` instead of killing it. A child still running after
    /// `timeoutSeconds` gets SIGTERM, then SIGKILL a second later, and the call throws `Timeout`
    /// naming `stage` (by default the executable's name).
    ///
    /// - Throws: the error of `Process.run()` when the executable cannot be started; `Timeout`.
    /// - Complexity: O(input + output) bytes copied; blocks until the child exits and closes its
    ///   output, or the timeout.
    package static func run(
        executable: String, arguments: [String], environment: [String: String], input: Data,
        stage: String? = nil, timeoutSeconds: Double = 60
    ) throws -> (status: Int32, output: Data, error: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        if !input.isEmpty {
            ignoreBrokenPipes()
        }
        try process.run()

        let output = PipeDrain(standardOutput.fileHandleForReading)
        let error = PipeDrain(standardError.fileHandleForReading)
        let feed = PipeFeed(input, into: standardInput.fileHandleForWriting)
        if exited.wait(timeout: .now() + timeoutSeconds) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            // Not waiting for the pipes: a grandchild may still hold them open.
            throw Timeout(stage: stage ?? process.executableURL!.lastPathComponent, seconds: timeoutSeconds)
        }
        process.waitUntilExit()
        feed.wait()
        let status = process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus
            : process.terminationStatus
        return (status, output.wait(), error.wait())
    }

    /// The running executable's absolute path, for re-running it as the child.
    ///
    /// On Linux this is `/proc/self/exe` resolved, which neither a relative `argv[0]` nor a
    /// later `chdir` can mislead; elsewhere Foundation's main bundle path, then `argv[0]`
    /// resolved against the working directory.
    package static func currentExecutablePath() -> String {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            resolved.hasPrefix("/")
        {
            return resolved
        }
        #endif
        if let bundled = Bundle.main.executablePath, bundled.hasPrefix("/") {
            return bundled
        }
        let argument = CommandLine.arguments.first ?? ""
        return URL(fileURLWithPath: argument).standardizedFileURL.path
    }

    /// Lets a write to a pipe whose reader has gone fail with `EPIPE` instead of killing this
    /// process. Idempotent.
    private static func ignoreBrokenPipes() {
        #if canImport(Glibc) || canImport(Darwin)
        signal(SIGPIPE, SIG_IGN)
        #endif
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeDrain: @unchecked Sendable {
    // Written by the reading thread before `finished.signal()`, read after `finished.wait()`.
    private var data = Data()
    private let finished = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = (try? handle.readToEnd()) ?? Data()
            try? handle.close()
            finished.signal()
        }
    }

    /// Everything the pipe delivered, once the writer has closed it.
    func wait() -> Data {
        finished.wait()
        return data
    }
}

/// Writes `input` to a pipe and closes it, on a thread of its own.
private final class PipeFeed: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)

    init(_ input: Data, into handle: FileHandle) {
        Thread.detachNewThread { [self] in
            // A child that exits early closes its end; the write then fails and is dropped.
            try? handle.write(contentsOf: input)
            try? handle.close()
            finished.signal()
        }
    }

    func wait() {
        finished.wait()
    }
}
