import Foundation
import PushDedupe
import Testing

/// The README's adoption example is the region below, compiled and run here, and the README must
/// show it line for line.
@Suite struct ReadmeAdoptionExampleTests {
    @MainActor @Test func theThreeLinesAdoptTheRecommendedPair() {
        let envelopeID = UUID()
        // BEGIN README adoption example
        let dedupe = MainActorDeduplicator.recommended()
        let first = dedupe.receivePayload(route: "item:42", envelope: envelopeID)   // .navigated
        let replay = dedupe.receiveEmit(envelope: envelopeID)                       // .suppressedByConsumedSet
        // END README adoption example
        #expect(first == .navigated)
        #expect(replay == .suppressedByConsumedSet)
        #expect(type(of: dedupe) == RecommendedMainActorDeduplicator.self)
    }

    @Test func theReadmeShowsTheTestedLinesVerbatim() throws {
        let marker = "<!-- adoption example: compiled and run by Tests/PushDedupeTests/Adoption/ReadmeAdoptionExampleTests.swift -->"
        let readme = try DocumentationBlocks.text("README.md")
        let tested = DocumentationBlocks.region(
            from: "// BEGIN README adoption example", to: "// END README adoption example",
            in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        let shown = DocumentationBlocks.fencedBlock(after: marker, in: readme)
        #expect(tested != nil && tested?.count == 3)
        #expect(shown == tested, "README.md's adoption example differs from the lines this test runs: copy them again")
    }
}
