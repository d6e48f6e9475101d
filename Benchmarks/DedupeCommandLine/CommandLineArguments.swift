#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's arguments as the kernel passed them.
package enum CommandLineArguments {
    /// The arguments after the program name, as raw bytes: `CommandLine.arguments` repairs
    /// invalid UTF-8, which would turn a file name into another one.
    package static func raw() -> [[UInt8]] {
        (1..<max(1, Int(CommandLine.argc))).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }
}
