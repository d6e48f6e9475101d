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
        // The monotonic clock and the sample statistics every measurement shares.
        .target(name: "DedupeMeasurement"),
        // The stores under attack, each in child processes: the cost on the calling thread,
        // kills, two writer processes, damaged files, and the explorer of interleavings.
        .target(name: "DedupeStoreLab", dependencies: ["PushDedupe", "DedupeMeasurement"]),
        // Timing, allocator statistics and correctness scoring.
        .target(
            name: "DedupeHarness",
            dependencies: ["PushDedupe", "DedupeWorkloads", "DedupeLifecycle", "DedupeMeasurement", "DedupeStoreLab"]),
        // What to adopt, and whether a change regressed: the recommendation's rule, the store
        // pick, and `compare`'s statistics, all read from results.
        .target(
            name: "DedupeDecision",
            dependencies: ["DedupeHarness", "DedupeLifecycle", "DedupeMeasurement", "DedupeStoreLab", "DedupeWorkloads", "PushDedupe"]),
        // CSV, Markdown, JSON and SVG reports derived from the harness's results and the decision.
        .target(
            name: "DedupeReports",
            dependencies: [
                "DedupeDecision", "DedupeHarness", "DedupeLifecycle", "DedupeMeasurement", "DedupeStoreLab", "DedupeWorkloads", "PushDedupe",
            ]),
        // The command-line conventions every tool shares: parsing, help, one-line errors and exit
        // codes.
        .target(name: "DedupeCommandLine", dependencies: ["DedupeWorkloads"], path: "Benchmarks/DedupeCommandLine"),
        // The user's verbs, kept in a library so tests reach them.
        .target(
            name: "DedupeCLI",
            dependencies: [
                "PushDedupe", "DedupeWorkloads", "DedupeHarness", "DedupeLifecycle", "DedupeDecision", "DedupeMeasurement", "DedupeReports",
                "DedupeCommandLine",
            ],
            path: "Benchmarks/DedupeCLI"
        ),
        // The public face of the bench: a team registers its own strategies and runs the command
        // line from its own executable, as `dedupe-bench` does with the library's.
        .target(
            name: "DedupeBench", dependencies: ["DedupeCLI", "DedupeCommandLine", "DedupeHarness", "PushDedupe"], path: "Benchmarks/DedupeBench"),
        .executableTarget(name: "dedupe-bench", dependencies: ["DedupeBench"], path: "Benchmarks/dedupe-bench"),
        // Maintainer tools, each an executable of its own so the user's tool holds the user's
        // verbs only: the end-to-end fuzzer of dedupe-bench, and the measurements outside a run.
        // They share the command-line conventions; the measurements also take the run's options.
        .target(
            name: "DedupeFuzz",
            dependencies: [
                "DedupeCommandLine", "DedupeDecision", "DedupeHarness", "DedupeMeasurement", "DedupeReports", "DedupeStoreLab", "DedupeWorkloads",
                "PushDedupe",
            ],
            path: "Benchmarks/DedupeFuzz"
        ),
        .executableTarget(name: "dedupe-fuzz", dependencies: ["DedupeCommandLine", "DedupeFuzz"], path: "Benchmarks/dedupe-fuzz"),
        .target(
            name: "DedupeMaintenance",
            dependencies: ["DedupeCLI", "DedupeCommandLine", "DedupeDecision", "DedupeHarness", "DedupeMeasurement", "DedupeReports", "DedupeWorkloads"],
            path: "Benchmarks/DedupeMaintenance"
        ),
        .executableTarget(
            name: "dedupe-maintain", dependencies: ["DedupeCommandLine", "DedupeMaintenance"], path: "Benchmarks/dedupe-maintain"),

        .testTarget(name: "PushDedupeTests", dependencies: ["PushDedupe"], swiftSettings: strategySettings),
        .testTarget(name: "DedupeWorkloadsTests", dependencies: ["DedupeWorkloads", "PushDedupe"]),
        .testTarget(name: "DedupeLifecycleTests", dependencies: ["DedupeLifecycle", "DedupeWorkloads", "PushDedupe"]),
        .testTarget(name: "DedupeHarnessTests", dependencies: ["DedupeHarness", "DedupeMeasurement", "DedupeWorkloads", "PushDedupe"]),
        .testTarget(name: "DedupeStoreLabTests", dependencies: ["DedupeMeasurement", "DedupeStoreLab", "PushDedupe"]),
        .testTarget(
            name: "DedupeReportsTests",
            dependencies: ["DedupeDecision", "DedupeReports", "DedupeHarness", "DedupeLifecycle", "DedupeMeasurement", "DedupeStoreLab"]),
        .testTarget(
            name: "DedupeCLITests",
            // The executables, so the tests run them as built (the fuzzer finds dedupe-bench beside it).
            dependencies: [
                "DedupeBench", "DedupeCLI", "DedupeCommandLine", "DedupeDecision", "DedupeFuzz", "DedupeMaintenance", "DedupeMeasurement", "DedupeStoreLab",
                "dedupe-bench", "dedupe-fuzz",
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
