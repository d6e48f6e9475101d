import DedupeCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(DedupeCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
