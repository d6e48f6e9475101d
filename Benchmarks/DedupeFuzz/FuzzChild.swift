import DedupeCommandLine
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of the tool under test for `dedupe-fuzz`: a child process in a process group of its own,
/// so a timeout ends it and every process it started (timing forks, the memory pass), and
/// nothing else. Its stdout and stderr go to files, so no pipe can fill and block it.
struct FuzzChild {
    /// How the child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Still running after the timeout; its group was killed.
        case timedOut
    }

    var ending: Ending
    var output: Data
    var error: Data

    /// Runs `executable` with `arguments`, stdin from `/dev/null`, stdout and stderr into
    /// `outputPath` and `errorPath`. After `timeoutSeconds` the group gets SIGTERM, then SIGKILL
    /// a second later (signalled while the child is still unreaped, so its id names no other
    /// group). A child that ends by itself has waited for its own children.
    static func run(executable: String, arguments: [String], outputPath: String, errorPath: String, timeoutSeconds: Double) throws(CommandLineError) -> FuzzChild {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        return try run(executable: executable, arguments: arguments, outputPath: outputPath, errorPath: errorPath) { Date() >= deadline }
    }

    /// As ``run(executable:arguments:outputPath:errorPath:timeoutSeconds:)``, but the group is
    /// ended when `shouldEnd` (asked every 5 ms while the child runs) returns true: a caller that
    /// watches the child's progress sets a deadline per step.
    static func run(
        executable: String, arguments: [String], outputPath: String, errorPath: String, until shouldEnd: () -> Bool
    ) throws(CommandLineError) -> FuzzChild {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw CommandLineError(.runFailed, "cannot start '\(executable)': \(String(cString: strerror(spawned)))")
        }

        var status: Int32 = 0
        var ending: Ending?
        while ending == nil {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid {
                ending = Self.ending(status)
            } else if waited < 0 && errno != EINTR {
                ending = .exited(-1)
            } else if shouldEnd() {
                kill(-pid, SIGTERM)
                let grace = Date().addingTimeInterval(1)
                while waitpid(pid, &status, WNOHANG) == 0 && Date() < grace { usleep(10_000) }
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                ending = .timedOut
            } else {
                usleep(5_000)
            }
        }
        return FuzzChild(
            ending: ending!, output: FileManager.default.contents(atPath: outputPath) ?? Data(),
            error: FileManager.default.contents(atPath: errorPath) ?? Data())
    }

    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}
