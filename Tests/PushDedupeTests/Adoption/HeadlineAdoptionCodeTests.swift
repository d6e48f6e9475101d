import Foundation
import PushDedupe
import Testing

/// The adoption code the reference run prints (`Reports/headline.md`, copied into the README's
/// headline) is the region below, compiled and run here: a push delivered twice, its replay at
/// the router's entry, and the same push again after a relaunch on the same store.
@Suite struct HeadlineAdoptionCodeTests {
    @MainActor static func adopt(storeURL: URL, route: String, messageID: String) -> (RoutingDecision, RoutingDecision, MainActorDeduplicator<HashDequeWindow, FIFOSet>) {
        // BEGIN headline adoption code
        // Once, in the router. The store's URL is the app's: Application Support, or an App Group container.
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL)
        // Right after a payload is normalized to a route:
        let decision = dedupe.receivePayload(route: route, pushID: messageID)
        // At the router's entry for every envelope emitted again (pending route, ready callback):
        let replay = dedupe.receiveEmit(pushID: messageID)
        // END headline adoption code
        return (decision, replay, dedupe)
    }

    @MainActor @Test func thePrintedCodeNavigatesOncePerPushAcrossARelaunch() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let storeURL = temporary.url.appendingPathComponent("consumed-routes.pdcs")
        let (first, replay, dedupe) = Self.adopt(storeURL: storeURL, route: "item:42", messageID: "msg-42")
        #expect(first == .navigated && replay == .suppressedByConsumedSet)
        #expect(dedupe.counters.saves == 1)
        // The next launch: the same push, handed over again as a stale initial notification.
        let (stale, _, relaunched) = Self.adopt(storeURL: storeURL, route: "item:42", messageID: "msg-42")
        #expect(relaunched.restoreOutcome == .restored(ids: 1))
        #expect(stale == .suppressedByConsumedSet)
        // Another push to the same screen, at the next launch, is a wanted navigation.
        let (other, _, _) = Self.adopt(storeURL: storeURL, route: "item:42", messageID: "msg-43")
        #expect(other == .navigated)
    }

    @Test func theHeadlineShowsTheTestedLinesVerbatim() throws {
        let headline = try DocumentationBlocks.text("Reports/headline.md")
        let tested = DocumentationBlocks.region(
            from: "// BEGIN headline adoption code", to: "// END headline adoption code",
            in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        let lines = headline.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let open = try #require(lines.firstIndex(of: "```swift"), "Reports/headline.md has no Swift block")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
        let shown = Array(lines[(open + 1)..<close].drop { $0 == "import PushDedupe" || $0.isEmpty })
        #expect(shown == tested,
                "Reports/headline.md's adoption code differs from the lines this test runs: update the region after a new reference run")
    }
}
