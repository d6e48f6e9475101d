import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command writes: standard output for results, standard error for progress and
/// errors. Tests substitute a recording console.
public struct Console: Sendable {
    public var output: @Sendable (String) -> Void
    public var error: @Sendable (String) -> Void

    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.output = output
        self.error = error
    }

    /// The process's standard output and standard error. A reader that stopped reading (`| head`;
    /// `main` ignores SIGPIPE, so this is `EPIPE`) ends the process quietly; any other failed write
    /// to standard output (a full disk) is one error line and exit code 2, never a trap and never
    /// a silently truncated result.
    public static let standard = Console(
        output: { text in
            do {
                try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
            } catch {
                // Foundation wraps the POSIX error (in NSUnderlyingErrorKey on Linux).
                let wrapped = error as NSError
                let posix = [wrapped, wrapped.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap { $0 }
                    .first { $0.domain == NSPOSIXErrorDomain }
                if posix?.code == Int(EPIPE) { exit(0) }
                try? FileHandle.standardError.write(
                    contentsOf: Data("dedupe-bench: error: cannot write to standard output: \(error.localizedDescription)\n".utf8))
                exit(2)
            }
        },
        error: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) })
}
