// swift-tools-version:6.0
import PackageDescription

// A team's own package: its dedupe code, benchmarked against the published code and the
// library's catalogue by depending on the bench, with no edit to it.
let package = Package(
    name: "TeamBench",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "PushDedupeBench", path: "../..")],
    targets: [
        .executableTarget(
            name: "team-bench",
            dependencies: [.product(name: "DedupeBench", package: "PushDedupeBench")]),
    ],
    swiftLanguageModes: [.v6]
)
