import DedupeMeasurement
import Foundation
import DedupeStoreLab

/// The harness's child-process entry point. The harness re-runs its own executable with a hidden
/// verb to measure in a fresh process: the timing forks, and the memory pass with jemalloc
/// preloaded. The executable's `main` hands its arguments over first thing:
///
///     if let code = HarnessChild.runIfRequested(rawArguments) { exit(code) }
///
/// That call also marks the process as able to host children; a process that never made it (a
/// test runner, another tool linking the harness) measures everything in-process instead, so the
/// harness never launches an executable that would not understand the verb.
///
/// Protocol: `EXECUTABLE __harness-child ROLE`, a JSON request on stdin, a JSON response on
/// stdout (the store writer: a stream of acknowledgements), diagnostics on stderr; exit 0, or 2
/// for a request the child cannot serve.
package enum HarnessChild {
    /// The hidden verb; never listed in help.
    package static let verb = "__harness-child"

    /// What a child is asked to do.
    enum Role: String, CaseIterable {
        /// One timing fork: `TimingForkRequest` in, `TimingForkResponse` out.
        case timing
        /// The memory pass: `MemoryPassRequest` in, `MemoryPassResponse` out.
        case memory
        /// A store writer: `StoreWriterRequest` in; out, one line per acknowledged consume, as
        /// it happens (``StoreWriterChild``), until done or killed.
        case storeWriter = "store-writer"
    }

    /// The catalogue this process's `main` registered, set once at start. A lock, not
    /// `Synchronization.Atomic`, which needs newer platforms than the package declares.
    private static let registration = _Registration()

    /// A store writer: this executable in the `store-writer` role.
    static var storeWriter: StoreWriterCommand {
        StoreWriterCommand(executable: ChildProcess.currentExecutablePath(), arguments: [verb, Role.storeWriter.rawValue])
    }

    /// Whether this process's `main` called ``runIfRequested(_:catalogue:)``, so re-running the
    /// executable with the hidden verb reaches the harness.
    static var canHostChildren: Bool { registration.hostsChildren }

    /// The strategies this executable registered at ``runIfRequested(_:catalogue:)``, or `nil`.
    static var registeredCatalogue: StrategyCatalogue? { registration.catalogue }

    /// Serves the request when `arguments` (without the program name) start with the hidden verb
    /// and returns the exit code; otherwise returns `nil` and the caller goes on as usual.
    /// `catalogue` resolves the strategy ids of a request: the strategies this executable links.
    ///
    /// - Complexity: O(1) when not requested; otherwise the measurement asked for.
    package static func runIfRequested(_ arguments: [[UInt8]], catalogue: StrategyCatalogue = .standard) -> Int32? {
        register(catalogue, hostsChildren: true)
        guard let first = arguments.first, first == Array(verb.utf8) else { return nil }
        let role = arguments.count == 2 ? Role(rawValue: String(decoding: arguments[1], as: UTF8.self)) : nil
        guard let role else {
            let roles = Role.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("\(verb): expected one role, \(roles)\n".utf8))
            return 2
        }
        let input = FileHandle.standardInput.readDataToEndOfFile()
        do {
            let output: Data
            switch role {
            case .timing:
                let request = try JSONDecoder().decode(TimingForkRequest.self, from: input)
                output = try JSONEncoder().encode(try TimingFork.run(request, catalogue: catalogue))
            case .memory:
                let request = try JSONDecoder().decode(MemoryPassRequest.self, from: input)
                output = try JSONEncoder().encode(
                    try MemoryPass.run(request, catalogue: catalogue, statistics: AllocatorStatisticsDetector.detect()))
            case .storeWriter:
                try StoreWriterChild.run(try JSONDecoder().decode(StoreWriterRequest.self, from: input))
                output = Data()
            }
            FileHandle.standardOutput.write(output)
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(verb) \(role.rawValue): \(error)\n".utf8))
            return 2
        }
    }

    /// Registers the strategies this process runs; `hostsChildren` when re-running its executable
    /// reaches ``runIfRequested(_:catalogue:)``. A process that cannot start another (a test
    /// runner on a device) registers without it, and measures everything in-process.
    package static func register(_ catalogue: StrategyCatalogue, hostsChildren: Bool) {
        registration.set(catalogue, hostsChildren: hostsChildren)
    }

    /// Runs this executable as a `role` child on `request` and decodes its response. Throws
    /// `ChildProcess.Timeout` for a hung child, `MeasurementError.stageFailed` for one that failed
    /// (its exit status and the first line of its stderr) or answered something unreadable.
    static func call<Response: Decodable>(
        _ role: Role, _ request: some Encodable, environment: [String: String] = [:], stage: String, timeoutSeconds: Double
    ) throws -> Response {
        let child = try ChildProcess.run(
            executable: ChildProcess.currentExecutablePath(), arguments: [verb, role.rawValue], environment: environment,
            input: JSONEncoder().encode(request), stage: stage, timeoutSeconds: timeoutSeconds)
        guard child.status == 0 else {
            let message = String(decoding: child.error, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            throw MeasurementError.stageFailed("\(stage): the child process failed with status \(child.status): \(message.prefix(300))")
        }
        do {
            return try JSONDecoder().decode(Response.self, from: child.output)
        } catch {
            throw MeasurementError.stageFailed("\(stage): the child process answered something unreadable (\(error))")
        }
    }
}

/// What this process registered, read and written under a lock, from any thread.
private final class _Registration: @unchecked Sendable {
    private let lock = NSLock()
    private var _catalogue: StrategyCatalogue?
    private var _hostsChildren = false

    var catalogue: StrategyCatalogue? { lock.withLock { _catalogue } }
    var hostsChildren: Bool { lock.withLock { _hostsChildren } }

    func set(_ catalogue: StrategyCatalogue, hostsChildren: Bool) {
        lock.withLock {
            _catalogue = catalogue
            _hostsChildren = hostsChildren
        }
    }
}
