// swift-tools-version:6.0
import PackageDescription

// Invariant checks run in debug builds (and so in `swift test`); the benchmark refuses to time a
// build that has them on.
let strategySettings: [SwiftSetting] = [
    .define("PUSHDEDUPE_INTERNAL_CHECKS", .when(configuration: .debug)),
]

let package = Package(
    name: "PushDedupeBench",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "PushDedupe", targets: ["PushDedupe"]),
        // The bench as a library: a team's own executable runs the command line with its types.
        .library(name: "DedupeBench", targets: ["DedupeBench"]),
        .executable(name: "dedupe-bench", targets: ["dedupe-bench"]),
        .executable(name: "dedupe-fuzz", targets: ["dedupe-fuzz"]),
        .executable(name: "dedupe-maintain", targets: ["dedupe-maintain"]),
    ],
    targets: [
        // The system SQLite on Linux (libsqlite3-dev); Apple platforms import the SDK's SQLite3.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The strategy library, the two-layer pipeline and the stores: Swift, portable to iOS.
        .target(
            name: "PushDedupe",
            dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))],
            swiftSettings: strategySettings),
        // Seeded bursty workloads with ground truth, and trace files.
        .target(name: "DedupeWorkloads", dependencies: ["PushDedupe"]),
        // The policy simulator: the articles' lifecycles around the shipped router core, and `verify`.
        .target(name: "DedupeLifecycle", dependencies: ["PushDedupe", "DedupeWorkloads"]),
        // Timing, allocator statistics and correctness scoring.
        .target(name: "DedupeHarness", dependencies: ["PushDedupe", "DedupeWorkloads", "DedupeLifecycle"]),
        // CSV, Markdown, JSON and SVG reports derived from the harness's results.
        .target(name: "DedupeReports", dependencies: ["DedupeHarness", "DedupeLifecycle", "DedupeWorkloads", "PushDedupe"]),
        // The user's command line: argument parsing and the user's verbs, kept in a library so
        // tests reach it. The maintainer tools below parse and report errors with it too.
        .target(
            name: "DedupeCLI",
            dependencies: ["PushDedupe", "DedupeWorkloads", "DedupeHarness", "DedupeLifecycle", "DedupeReports"],
            path: "Benchmarks/DedupeCLI"
        ),
        // The public face of the bench: a team registers its own strategies and runs the command
        // line from its own executable, as `dedupe-bench` does with the library's.
        .target(
            name: "DedupeBench", dependencies: ["DedupeCLI", "DedupeHarness", "PushDedupe"], path: "Benchmarks/DedupeBench"),
        .executableTarget(name: "dedupe-bench", dependencies: ["DedupeBench"], path: "Benchmarks/dedupe-bench"),
        // Maintainer tools, each an executable of its own so the user's tool holds the user's
        // verbs only: the end-to-end fuzzer of dedupe-bench, and the measurements outside a run.
        .target(
            name: "DedupeFuzz",
            dependencies: ["DedupeCLI", "DedupeHarness", "DedupeReports", "DedupeWorkloads", "PushDedupe"],
            path: "Benchmarks/DedupeFuzz"
        ),
        .executableTarget(name: "dedupe-fuzz", dependencies: ["DedupeCLI", "DedupeFuzz"], path: "Benchmarks/dedupe-fuzz"),
        .target(
            name: "DedupeMaintenance",
            dependencies: ["DedupeCLI", "DedupeHarness", "DedupeReports", "DedupeWorkloads"],
            path: "Benchmarks/DedupeMaintenance"
        ),
        .executableTarget(
            name: "dedupe-maintain", dependencies: ["DedupeCLI", "DedupeMaintenance"], path: "Benchmarks/dedupe-maintain"),

        .testTarget(name: "PushDedupeTests", dependencies: ["PushDedupe"], swiftSettings: strategySettings),
        .testTarget(name: "DedupeWorkloadsTests", dependencies: ["DedupeWorkloads", "PushDedupe"]),
        .testTarget(name: "DedupeLifecycleTests", dependencies: ["DedupeLifecycle", "DedupeWorkloads", "PushDedupe"]),
        .testTarget(name: "DedupeHarnessTests", dependencies: ["DedupeHarness", "DedupeWorkloads", "PushDedupe"]),
        .testTarget(
            name: "DedupeReportsTests", dependencies: ["DedupeReports", "DedupeHarness", "DedupeLifecycle", "DedupeWorkloads", "PushDedupe"]),
        .testTarget(
            name: "DedupeCLITests",
            // The executables, so the tests run them as built (the fuzzer finds dedupe-bench beside it).
            dependencies: ["DedupeBench", "DedupeCLI", "DedupeFuzz", "DedupeMaintenance", "dedupe-bench", "dedupe-fuzz"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
