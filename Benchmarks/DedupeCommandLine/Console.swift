import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the command writes: standard output for results, standard error for progress and
/// errors. Tests substitute a recording console.
package struct Console: Sendable {
    package var output: @Sendable (String) -> Void
    package var error: @Sendable (String) -> Void
    /// Whether `error` reaches a terminal, which gets one progress line rewritten in place.
    package var errorIsTerminal: Bool
    /// The terminal's columns when `errorIsTerminal`.
    package var errorColumns: Int

    package init(
        output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false, errorColumns: Int = 80
    ) {
        self.output = output
        self.error = error
        self.errorIsTerminal = errorIsTerminal
        self.errorColumns = errorColumns
    }

    /// The process's standard output and standard error. A reader that stopped reading (`| head`;
    /// `main` ignores SIGPIPE, so this is `EPIPE`) ends the process quietly; any other failed write
    /// to standard output (a full disk) is one error line and exit code 2, never a trap and never
    /// a silently truncated result.
    package static let standard = Console(
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
                    contentsOf: Data("\(ProcessInfo.processInfo.processName): error: cannot write to standard output: \(error.localizedDescription)\n".utf8))
                exit(2)
            }
        },
        error: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) },
        errorIsTerminal: isatty(STDERR_FILENO) == 1, errorColumns: standardErrorColumns())

    /// The width of the terminal on stderr (`TIOCGWINSZ`), else `COLUMNS`, else 80.
    private static func standardErrorColumns() -> Int {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        if ioctl(STDERR_FILENO, request, &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) } ?? 80
    }
}
