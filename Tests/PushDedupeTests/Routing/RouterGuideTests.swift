import Foundation
import PushDedupe
import Testing

/// The guide's adoption example, compiled and run, and compared with the guide's copy.
@MainActor @Suite struct RouterGuideTests {
    @Test func theAdoptionExampleRoutesEachNavigationOnce() async throws {
        enum AppRoute: Hashable, Sendable {
            case item(Int)
            case receipt(order: Int)
        }
        struct Details {
            func load(_ route: AppRoute) async throws {}
        }
        func checkout() async throws -> Int { 9 }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let storeURL = directory.file("consumed-routes.pdcs")
        let details = Details()
        let messageID = "msg-1"

        // BEGIN Guides/Router.md adoption example
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL)
        let router = NavigationRouter<AppRoute, _>(ledger: dedupe) { route in try await details.load(route) }
        router.receivePayload(.item(42), pushID: messageID)      // tap, cold launch, initial notification
        router.receiveEmit(.item(42), pushID: messageID)         // pending route, ready callback: ignored
        router.push(.item(7))                                    // a button: never twice on top
        router.run(action: "checkout") {                         // ignored while a checkout runs
            router.push(.receipt(order: try await checkout()))
        }
        // SwiftUI: NavigationStack(path: router.pathBinding) { … }
        //          RouterActionButton("checkout", router: router, operation: …) { Text("Pay") }
        // END Guides/Router.md adoption example

        #expect(router.run(action: "checkout") {} == nil, "a second checkout while the first runs")
        for _ in 0..<10_000 where router.path.count < 3 || router.isBusy("checkout") { await Task.yield() }
        #expect(Set(router.path) == [.item(42), .item(7), .receipt(order: 9)] && router.path.count == 3)
        #expect(router.ignored == [.consumedEnvelope: 1, .inFlightAction: 1])
    }

    @Test(arguments: ["Guides/Router.md", "Guides/Adopting.md", "README.md"])
    func theDocumentShowsTheTestedExampleVerbatim(_ document: String) throws {
        let marker = "<!-- router adoption example: compiled and run by Tests/PushDedupeTests/Routing/RouterGuideTests.swift -->"
        let shown = DocumentationBlocks.fencedBlock(after: marker, in: try DocumentationBlocks.text(document))
        let tested = DocumentationBlocks.region(
            from: "// BEGIN Guides/Router.md adoption example", to: "// END Guides/Router.md adoption example",
            in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        #expect(tested != nil && shown == tested, "\(document)'s router example differs from the one this test runs: copy it again")
        #expect((shown?.count ?? .max) <= 12)
    }
}
