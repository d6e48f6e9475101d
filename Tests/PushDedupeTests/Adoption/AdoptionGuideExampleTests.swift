import Foundation
import PushDedupe
import Testing

/// Guides/Adopting.md's adoption example is the region below, compiled and run here, and the guide must
/// show it line for line.
@Suite struct AdoptionGuideExampleTests {
    /// The guide's lines: key on the push's id, the recommended version with its store at the
    /// app's file; then a relaunch (a second deduplicator on the same file) drops the replay.
    @MainActor @Test func theExampleKeysOnThePushAndSuppressesAReplayAcrossARelaunch() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let applicationSupport = temporary.url
        let messageID = "c7f0e1a2-msg-42"                 // the server's own id, from the payload
        // BEGIN Guides/Adopting.md adoption example
        let storeURL = applicationSupport.appendingPathComponent("consumed-routes.pdcs")
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL)
        let first = dedupe.receivePayload(route: "item:42", pushID: messageID)     // .navigated
        let again = dedupe.receivePayload(route: "item:42", pushID: messageID)     // .suppressedByWindow
        let pending = dedupe.receiveEmit(pushID: messageID)                        // .suppressedByConsumedSet

        // The next launch, after iOS killed the app: the set comes back from the file.
        let relaunched = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL)  // .restored(ids: 1)
        let stale = relaunched.receiveEmit(pushID: messageID)                      // .suppressedByConsumedSet
        // END Guides/Adopting.md adoption example
        #expect(first == .navigated)
        #expect(again == .suppressedByWindow)
        #expect(pending == .suppressedByConsumedSet)
        #expect(dedupe.counters.saves == 1 && dedupe.restoreOutcome == .nothingStored)
        #expect(relaunched.restoreOutcome == .restored(ids: 1))
        #expect(stale == .suppressedByConsumedSet)
        #expect(type(of: dedupe) == RecommendedPreset.V3MainActor.self)
        #expect(RecommendedPreset.v3.store(at: storeURL).design == RecommendedPreset.v3.storeDesign)
    }

    @Test func theReadmeShowsTheTestedLinesVerbatim() throws {
        let marker = "<!-- adoption example: compiled and run by Tests/PushDedupeTests/Adoption/AdoptionGuideExampleTests.swift -->"
        let readme = try DocumentationBlocks.text("Guides/Adopting.md")
        let tested = DocumentationBlocks.region(
            from: "// BEGIN Guides/Adopting.md adoption example", to: "// END Guides/Adopting.md adoption example",
            in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        let shown = DocumentationBlocks.fencedBlock(after: marker, in: readme)
        #expect(tested != nil && tested?.count == 9)
        #expect(shown == tested, "Guides/Adopting.md's adoption example differs from the lines this test runs: copy them again")
    }
}
