@testable import DedupeHarness
import Foundation
import Testing

/// The commit a run records names the measured code, or says that no commit holds it.
@Suite struct EnvironmentProbeTests {
    @Test func commitIsMarkedDirtyOnlyForChangesToTheMeasuredCode() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("probe-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for folder in ["Sources", "Reports"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        }
        func write(_ path: String, _ text: String) throws {
            try text.write(toFile: directory + "/" + path, atomically: true, encoding: .utf8)
        }
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", directory, "-c", "user.name=probe", "-c", "user.email=probe@example.com"]
                + arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "git \(arguments.joined(separator: " "))")
        }
        #expect(EnvironmentProbe.gitCommit(in: directory) == "unknown")
        try write("Sources/A.swift", "let a = 1\n")
        try write("Reports/report.md", "before\n")
        try git("init")
        try git("add", ".")
        try git("commit", "-m", "first")
        let commit = EnvironmentProbe.gitCommit(in: directory)
        #expect(commit.count >= 7 && commit.allSatisfy(\.isHexDigit), "\(commit)")

        try write("Reports/report.md", "after\n")
        #expect(EnvironmentProbe.gitCommit(in: directory) == commit, "a rewritten report is not a code change")
        try write("Sources/B.swift", "let b = 2\n")
        #expect(EnvironmentProbe.gitCommit(in: directory) == commit + "-dirty", "an untracked source file")
        try FileManager.default.removeItem(atPath: directory + "/Sources/B.swift")
        try write("Sources/A.swift", "let a = 3\n")
        #expect(EnvironmentProbe.gitCommit(in: directory) == commit + "-dirty", "a modified source file")
    }
}
