import Foundation

extension ChildProcess {
    /// The path of a libjemalloc that can be preloaded into a child, or `nil` when none is
    /// installed. Computed once per process.
    ///
    /// Candidates are the usual multiarch and lib directories, then `ldconfig -p`. A candidate
    /// counts only if preloading it into `true` makes that program print jemalloc's statistics
    /// at exit. (Loading it here with `dlopen` is no test: jemalloc uses initial-exec TLS, which
    /// glibc refuses to `dlopen` into a running process: "cannot allocate memory in static TLS
    /// block".)
    ///
    /// - Complexity: one short child process per candidate tried, on the first call only.
    package static func jemallocLibraryPath() -> String? {
        cachedJemallocLibraryPath
    }

    /// The environment additions that preload `library` into a child, ahead of any preload this
    /// process already passes on.
    package static func preloadEnvironment(library: String) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? ""
        return ["LD_PRELOAD": inherited.isEmpty ? library : library + ":" + inherited]
    }

    private static let cachedJemallocLibraryPath: String? = {
        #if os(Linux)
        let usable = { (path: String) in
            FileManager.default.isReadableFile(atPath: path) && canPreloadJemalloc(path)
        }
        // The cache is read only when no usual directory has the library.
        return wellKnownJemallocPaths().first(where: usable) ?? ldconfigJemallocPaths().first(where: usable)
        #else
        return nil
        #endif
    }()

    private static func wellKnownJemallocPaths() -> [String] {
        #if arch(x86_64)
        let multiarch = "x86_64-linux-gnu"
        #elseif arch(arm64)
        let multiarch = "aarch64-linux-gnu"
        #else
        let multiarch = "unknown"
        #endif
        let directories = [
            "/usr/lib/\(multiarch)", "/lib/\(multiarch)", "/usr/lib64", "/usr/lib", "/usr/local/lib",
        ]
        return directories.map { $0 + "/libjemalloc.so.2" }
    }

    /// `libjemalloc.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libjemalloc.so.2` lines of
    /// the dynamic linker's cache.
    static func ldconfigJemallocPaths() -> [String] {
        for ldconfig in ["/sbin/ldconfig", "/usr/sbin/ldconfig"]
        where FileManager.default.isExecutableFile(atPath: ldconfig) {
            guard let result = try? run(executable: ldconfig, arguments: ["-p"], environment: [:], input: Data(), stage: "jemalloc lookup (ldconfig -p)"),
                result.status == 0
            else { continue }
            return String(decoding: result.output, as: UTF8.self)
                .split(separator: "\n")
                .filter { $0.contains("libjemalloc.so.2 ") }
                .compactMap { line in line.range(of: "=> ").map { String(line[$0.upperBound...]) } }
        }
        return []
    }

    /// Whether `library`, preloaded into `true`, replaces its allocator: with
    /// `MALLOC_CONF=stats_print:true` only jemalloc prints this banner at exit. (`true` rather
    /// than `sh`: dash leaves through `_exit`, which skips jemalloc's exit hook.)
    private static func canPreloadJemalloc(_ library: String) -> Bool {
        guard let program = ["/bin/true", "/usr/bin/true"].first(where: FileManager.default.isExecutableFile(atPath:))
        else { return false }
        let environment = preloadEnvironment(library: library).merging(["MALLOC_CONF": "stats_print:true"]) { $1 }
        guard let result = try? run(executable: program, arguments: [], environment: environment, input: Data(), stage: "jemalloc probe"),
            result.status == 0
        else { return false }
        return String(decoding: result.error, as: UTF8.self).contains("Begin jemalloc statistics")
    }
}
