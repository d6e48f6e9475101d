import Foundation
import Testing
@testable import DedupeHarness

@Suite struct ChildProcessTests {
    @Test func echoesInputCapturesErrorAndReturnsStatus() throws {
        let result = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", "cat; echo err >&2; exit 3"], environment: [:],
            input: Data("hello\nworld\n".utf8))
        #expect(result.status == 3)
        #expect(String(decoding: result.output, as: UTF8.self) == "hello\nworld\n")
        #expect(String(decoding: result.error, as: UTF8.self) == "err\n")
    }

    /// 2 MiB in and out at once plus 1 MiB on stderr: far beyond a pipe's 64 KiB buffer, so
    /// serving the three pipes one after another would deadlock.
    @Test func largeInputAndOutputDoNotDeadlock() throws {
        var generator = UInt64(0x9E37_79B9_7F4A_7C15)
        let input = Data((0..<(2 << 20)).map { _ -> UInt8 in
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: generator >> 56)
        })
        let result = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", "cat; head -c 1048576 /dev/zero >&2"], environment: [:],
            input: input)
        #expect(result.status == 0)
        #expect(result.output == input)
        #expect(result.error == Data(count: 1 << 20))
    }

    @Test func childThatIgnoresItsInputIsNotAnError() throws {
        let result = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", "exit 0"], environment: [:], input: Data(count: 4 << 20))
        #expect(result.status == 0)
    }

    @Test func environmentIsInheritedPlusAdditions() throws {
        let result = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", #"printf '%s|%s' "$PUSHDEDUPE_ADDED" "$PATH""#],
            environment: ["PUSHDEDUPE_ADDED": "yes"], input: Data())
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        #expect(String(decoding: result.output, as: UTF8.self) == "yes|\(path)")
    }

    @Test func signalledChildReportsShellStatus() throws {
        let result = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", "kill -9 $$"], environment: [:], input: Data())
        #expect(result.status == 128 + 9)
    }

    @Test func missingExecutableThrows() {
        #expect(throws: (any Error).self) {
            try ChildProcess.run(
                executable: "/nonexistent/pushdedupe-child", arguments: [], environment: [:], input: Data())
        }
    }

    @Test func currentExecutablePathIsThisExecutable() throws {
        let path = ChildProcess.currentExecutablePath()
        #expect(path.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
        #if os(Linux)
        // The test bundle is the executable on Linux; elsewhere a runner loads it.
        #expect(path.hasSuffix(".xctest"))
        #endif
    }

    @Test func preloadEnvironmentPutsTheLibraryFirst() {
        let environment = ChildProcess.preloadEnvironment(library: "/lib/libexample.so")
        #expect(environment["LD_PRELOAD"]?.hasPrefix("/lib/libexample.so") == true)
    }

    /// The library found is preloaded for real: the child's allocator is jemalloc.
    @Test func jemallocPreloadReachesTheChild() throws {
        guard let library = ChildProcess.jemallocLibraryPath() else {
            #if arch(x86_64)
            #expect(!FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"))
            #endif
            print("skipped: no preloadable libjemalloc.so.2 on this machine")
            return
        }
        #expect(library.hasSuffix("libjemalloc.so.2"))
        let environment = ChildProcess.preloadEnvironment(library: library)
        let echoed = try ChildProcess.run(
            executable: "/bin/sh", arguments: ["-c", #"printf %s "$LD_PRELOAD""#], environment: environment,
            input: Data())
        #expect(String(decoding: echoed.output, as: UTF8.self) == environment["LD_PRELOAD"])

        let printed = try ChildProcess.run(
            executable: "/bin/true", arguments: [],
            environment: environment.merging(["MALLOC_CONF": "stats_print:true"]) { $1 }, input: Data())
        #expect(printed.status == 0)
        #expect(String(decoding: printed.error, as: UTF8.self).contains("Begin jemalloc statistics"))
    }

    /// The fallback search parses the dynamic linker's cache.
    @Test func ldconfigCacheIsParsed() throws {
        #if os(Linux)
        let paths = ChildProcess.ldconfigJemallocPaths()
        guard let ldconfig = ["/sbin/ldconfig", "/usr/sbin/ldconfig"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            #expect(paths.isEmpty)
            return
        }
        let listing = try ChildProcess.run(executable: ldconfig, arguments: ["-p"], environment: [:], input: Data())
        let listed = String(decoding: listing.output, as: UTF8.self).contains("libjemalloc.so.2 ")
        #expect(paths.isEmpty == !listed)
        for path in paths {
            #expect(path.hasPrefix("/") && path.hasSuffix("/libjemalloc.so.2"))
        }
        #endif
    }
}
