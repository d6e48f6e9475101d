import Foundation
import Testing
@testable import DedupeHarness

@Suite struct ResultsCodingTests {
    @Test func schemaVersionIsWritten() throws {
        let environment = EnvironmentInfo(
            toolchain: "t", operatingSystem: "o", cpuModel: "c", coreCount: 2, allocator: "a", seed: 1,
            gitCommit: "g", date: "d", buildConfiguration: .release, clockResolutionNanoseconds: 1,
            harnessOverheadNanosecondsPerEvent: 1)
        let results = RunResults(
            environment: environment,
            settings: RunSettings(quick: true, repetitions: 5, windowMilliseconds: 500, filters: [], traceFile: nil),
            cases: [], sweeps: [])
        let data = try JSONEncoder().encode(results)
        let decoded = try JSONDecoder().decode(RunResults.self, from: data)
        #expect(decoded == results)
        #expect(decoded.schemaVersion == RunResults.currentSchemaVersion)
    }
}
