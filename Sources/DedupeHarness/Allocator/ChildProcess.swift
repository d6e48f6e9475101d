import Foundation

/// Runs the memory pass in a child process with jemalloc preloaded, so timings in the parent
/// keep the platform allocator while memory figures come from jemalloc. (Skeleton.)
public enum ChildProcess {
    /// The path of a loadable libjemalloc, or `nil` when none is installed.
    public static func jemallocLibraryPath() -> String? {
        nil
    }

    /// Runs `executable` with `arguments`, extra `environment` entries and `input` on stdin, and
    /// returns its exit status, stdout and stderr.
    public static func run(
        executable: String, arguments: [String], environment: [String: String], input: Data
    ) throws -> (status: Int32, output: Data, error: Data) {
        throw HarnessError.invalidPlan("child processes are not built yet")
    }

    /// The running executable's path, for re-running it as the child.
    public static func currentExecutablePath() -> String {
        CommandLine.arguments[0]
    }
}
