import Foundation

/// Collects the run's environment metadata. Everything here runs once per run, never near a
/// measured loop.
enum EnvironmentProbe {
    static func collect(
        seed: UInt64, allocator: String, buildConfiguration: BuildConfiguration, clockResolution: Double, harnessOverhead: Double
    ) -> EnvironmentInfo {
        EnvironmentInfo(
            toolchain: toolchain(), operatingSystem: operatingSystem(), cpuModel: cpuModel(),
            coreCount: ProcessInfo.processInfo.activeProcessorCount, allocator: allocator, seed: seed,
            gitCommit: gitCommit(in: FileManager.default.currentDirectoryPath),
            date: ISO8601DateFormatter().string(from: Date()), buildConfiguration: buildConfiguration,
            clockResolutionNanoseconds: clockResolution, harnessOverheadNanosecondsPerEvent: harnessOverhead)
    }

    /// The short commit of the checkout at `directory`, with `-dirty` appended (git's own mark)
    /// when `Sources`, `Benchmarks` or `Package.swift` there differ from it, tracked or not:
    /// the figures then come from code no commit holds. Other files, such as the `Reports/` a
    /// reference run rewrites, do not count. `unknown` outside a checkout.
    static func gitCommit(in directory: String) -> String {
        guard let commit = output(of: "/usr/bin/env", ["git", "-C", directory, "rev-parse", "--short", "HEAD"]) else {
            return "unknown"
        }
        let changes = output(
            of: "/usr/bin/env",
            ["git", "-C", directory, "status", "--porcelain", "--", "Sources", "Benchmarks", "Package.swift"])
        return changes == nil ? commit : commit + "-dirty"
    }

    /// `swift --version`'s first line, else the compiler version the harness was built with.
    static func toolchain() -> String {
        if let version = output(of: "/usr/bin/env", ["swift", "--version"])?.split(separator: "\n").first {
            return String(version)
        }
        #if compiler(>=6.3)
        return "Swift 6.3 or later (compile time)"
        #elseif compiler(>=6.0)
        return "Swift 6.x (compile time)"
        #else
        return "Swift (compile time)"
        #endif
    }

    /// `PRETTY_NAME` from /etc/os-release plus the kernel from `uname`.
    static func operatingSystem() -> String {
        var name = ProcessInfo.processInfo.operatingSystemVersionString
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        if let kernel = output(of: "/usr/bin/env", ["uname", "-srm"]) {
            name += " (\(kernel))"
        }
        return name
    }

    /// The first `model name` of /proc/cpuinfo, else `sysctl machdep.cpu.brand_string`.
    static func cpuModel() -> String {
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return output(of: "/usr/bin/env", ["sysctl", "-n", "machdep.cpu.brand_string"]) ?? "unknown"
    }

    /// The trimmed stdout of a command that exits 0, else `nil`.
    static func output(of executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
