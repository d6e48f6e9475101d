import Foundation

/// Runs the built executables (`dedupe-bench`, by default) and captures what they printed.
enum BinaryRunner {
    struct Outcome {
        /// The exit code, or the signal number when `killedBySignal`.
        var status: Int32
        var killedBySignal = false
        var output: String
        var error: String
    }

    /// The executable sits in the build products directory, beside this target's resource bundle.
    static var executable: URL { executable(named: "dedupe-bench") }

    static func executable(named tool: String) -> URL {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent(tool)
    }

    /// Runs `tool` with `arguments`; `environment` is added to this process's environment.
    static func run(
        tool: String = "dedupe-bench", _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable(named: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes before waiting, so a full pipe cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }

    static func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(name)
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dedupe-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
