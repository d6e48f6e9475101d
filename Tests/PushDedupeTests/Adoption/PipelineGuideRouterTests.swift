import Foundation
import PushDedupe
import Testing

// BEGIN Guides/Pipeline.md router example
@MainActor
final class PushRouter {
    private let dedupe: RecommendedPreset.V3MainActor
    private let app: AppNavigation                  // the app's tabs, host and detail loading
    private(set) var inFlightTask: Task<Void, Never>?

    /// `dedupe` is made once, at launch, with the app's store:
    /// `MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: applicationSupport.appendingPathComponent("consumed-routes.pdcs"))`.
    init(app: AppNavigation, dedupe: RecommendedPreset.V3MainActor) {
        self.app = app
        self.dedupe = dedupe
    }

    /// Every path that hands over a push: notification tap, cold-launch options, the initial
    /// notification after a relaunch. `pushID` is the id the push carries: the server's message
    /// id in the payload, or `UNNotificationRequest.identifier`. Returns the envelope it routed,
    /// for a path that may replay it later.
    @discardableResult
    func handle(payload: [AnyHashable: Any], pushID: String, source: String) -> RouteEnvelope? {
        guard let route = AppRoute(payload: payload) else { return nil }   // normalize first
        // Layers 1 and 2, before anything else: a dropped payload never becomes navigation.
        guard dedupe.receivePayload(route: route.target, pushID: pushID, source: source) == .navigated
        else { return nil }
        let envelope = RouteEnvelope(pushID: pushID, route: route)
        navigate(envelope)
        return envelope
    }

    /// Every path that re-emits an existing envelope: pending route, ready callback.
    func replay(_ envelope: RouteEnvelope, source: String) {
        guard dedupe.receiveEmit(pushID: envelope.pushID, source: source) == .navigated else { return }
        navigate(envelope)
    }

    /// A navigation no push carries (a button in the app): its own fresh envelope.
    func open(_ route: AppRoute, source: String) {
        let tap = UUID()
        guard dedupe.receivePayload(route: route.target, envelope: tap, source: source) == .navigated else { return }
        navigate(RouteEnvelope(pushID: tap.uuidString, route: route))
    }

    /// From `sceneDidEnterBackground`: the last callback before iOS may kill the app.
    func didEnterBackground() {
        dedupe.didEnterBackground()
    }

    /// Runs only for an envelope consumed just now, so every early return below leaves it
    /// marked, and it was marked before the async work starts.
    private func navigate(_ envelope: RouteEnvelope) {
        guard let tab = envelope.route.tab, app.enabledTabs.contains(tab) else { return }
        guard let host = app.host else { return }
        inFlightTask?.cancel()                      // only the latest routing may push
        inFlightTask = Task { @MainActor in
            guard let detail = await app.resolveDetail(for: envelope.route), !Task.isCancelled else { return }
            host.push(detail)
        }
    }
}
// END Guides/Pipeline.md router example

/// The app's side of the guide's router, reduced to what the test drives.
struct AppRoute: Hashable {
    var target: String
    var tab: String?

    init?(payload: [AnyHashable: Any]) {
        guard let target = payload["route"] as? String else { return nil }
        self.target = target
        self.tab = payload["tab"] as? String
    }
}

struct RouteEnvelope {
    let pushID: String
    let route: AppRoute
}

@MainActor
final class NavigationHost {
    private(set) var pushed: [String] = []

    func push(_ detail: String) { pushed.append(detail) }
}

/// Detail loading that waits until the test releases it, so the test decides the interleaving.
@MainActor
final class AppNavigation {
    var enabledTabs: Set<String> = ["home"]
    var host: NavigationHost? = NavigationHost()
    private var waiting: [(route: AppRoute, continuation: CheckedContinuation<String?, Never>)] = []

    var pendingLoads: Int { waiting.count }

    func resolveDetail(for route: AppRoute) async -> String? {
        await withCheckedContinuation { waiting.append((route, $0)) }
    }

    /// Lets every waiting load finish, oldest first.
    func releaseLoads() {
        let released = waiting
        waiting = []
        for (route, continuation) in released { continuation.resume(returning: "detail:\(route.target)") }
    }
}

/// The guide's router, run through the article's flow.
@Suite struct PipelineGuideRouterTests {
    @MainActor
    static func waitForLoads(_ app: AppNavigation, count: Int) async {
        while app.pendingLoads < count { await Task.yield() }
    }

    @MainActor @Test func theRouterFollowsTheArticlesFlow() async {
        let clock = ManualClock()
        let app = AppNavigation()
        let router = PushRouter(app: app, dedupe: .recommended(clock: .manual(clock)))
        let item = ["route": "item:42", "tab": "home"]

        // A tap, then the cold-launch copy of the same push 3 ms later: layer 1 drops the copy.
        let tapped = router.handle(payload: item, pushID: "msg-1", source: "tap")
        let firstTask = router.inFlightTask
        #expect(tapped != nil)
        clock.advance(by: .milliseconds(3))
        #expect(router.handle(payload: item, pushID: "msg-1", source: "cold_launch") == nil)
        #expect(router.inFlightTask == firstTask)

        // The pending route replays the tapped envelope while its detail is still loading: it
        // was consumed before the load began, so no second load starts.
        clock.advance(by: .milliseconds(40))
        router.replay(tapped!, source: "pending_route")
        #expect(router.inFlightTask == firstTask)

        // The same push delivered again through a second device token, long after the window:
        // one push id, so layer 2 drops it.
        clock.advance(by: .seconds(5))
        #expect(router.handle(payload: item, pushID: "msg-1", source: "second_token") == nil)

        // An early return (the tab is disabled) still consumes the envelope.
        clock.advance(by: .seconds(1))
        let settings = router.handle(payload: ["route": "settings:1", "tab": "settings"], pushID: "msg-2", source: "tap")
        #expect(settings != nil)
        app.enabledTabs.insert("settings")
        router.replay(settings!, source: "ready_callback")
        #expect(router.inFlightTask == firstTask)

        // A second, different push cancels the first one's routing: only it may push.
        clock.advance(by: .seconds(1))
        #expect(router.handle(payload: ["route": "item:7", "tab": "home"], pushID: "msg-3", source: "tap") != nil)
        let secondTask = router.inFlightTask
        #expect(secondTask != firstTask)

        // A payload that does not normalize never reaches the deduplicator.
        #expect(router.handle(payload: ["tab": "home"], pushID: "msg-4", source: "tap") == nil)

        await Self.waitForLoads(app, count: 2)
        app.releaseLoads()
        await firstTask?.value
        await secondTask?.value
        #expect(app.host?.pushed == ["detail:item:7"])
    }

    @MainActor @Test func noHostIsAnEarlyReturnThatStillConsumes() async {
        let app = AppNavigation()
        app.host = nil
        let router = PushRouter(app: app, dedupe: .recommended(clock: .manual(ManualClock())))
        let envelope = router.handle(payload: ["route": "item:1", "tab": "home"], pushID: "msg-1", source: "tap")
        #expect(envelope != nil && router.inFlightTask == nil)
        app.host = NavigationHost()
        router.replay(envelope!, source: "ready_callback")
        #expect(router.inFlightTask == nil)
    }

    /// Two taps on a button are two navigations the app made: each its own `UUID`, so only the
    /// window stands between them.
    @MainActor @Test func inAppNavigationsUseTheirOwnEnvelopes() async {
        let clock = ManualClock()
        let app = AppNavigation()
        let router = PushRouter(app: app, dedupe: .recommended(clock: .manual(clock)))
        let profile = AppRoute(payload: ["route": "profile:1", "tab": "home"])!
        router.open(profile, source: "button")
        let first = router.inFlightTask
        clock.advance(by: .milliseconds(100))
        router.open(profile, source: "button")
        #expect(router.inFlightTask == first, "a double tap inside the window")
        clock.advance(by: .seconds(2))
        router.open(profile, source: "button")
        #expect(router.inFlightTask != first, "a deliberate tap later is a new navigation")
        await Self.waitForLoads(app, count: 2)
        app.releaseLoads()
    }

    /// The app is killed after going to the background; its next launch builds the router on the
    /// same store, and the stale initial notification of a push it already opened is dropped.
    @MainActor @Test func aStaleInitialNotificationAfterARelaunchIsDropped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = DedupeStore.snapshot(directory.file("consumed-routes.pdcs"), saving: .onBackground)
        let item = ["route": "item:42", "tab": "home"]
        let app = AppNavigation()
        let first = PushRouter(app: app, dedupe: .recommended(store: store, clock: .manual(ManualClock())))
        #expect(first.handle(payload: item, pushID: "msg-1", source: "tap") != nil)
        first.didEnterBackground()
        let relaunched = PushRouter(app: app, dedupe: .recommended(store: store, clock: .manual(ManualClock())))
        #expect(relaunched.handle(payload: item, pushID: "msg-1", source: "initial_notification") == nil)
        #expect(relaunched.handle(payload: ["route": "item:7", "tab": "home"], pushID: "msg-2", source: "tap") != nil)
        await Self.waitForLoads(app, count: 2)
        app.releaseLoads()
    }

    @Test func theGuideShowsTheTestedRouterVerbatim() throws {
        let marker = "<!-- router example: compiled and run by Tests/PushDedupeTests/Adoption/PipelineGuideRouterTests.swift -->"
        let guide = try DocumentationBlocks.text("Guides/Pipeline.md")
        let tested = DocumentationBlocks.region(
            from: "// BEGIN Guides/Pipeline.md router example", to: "// END Guides/Pipeline.md router example",
            in: try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
        let shown = DocumentationBlocks.fencedBlock(after: marker, in: guide)
        #expect(tested != nil)
        #expect(shown == ["import Foundation", "import PushDedupe", ""] + (tested ?? []),
                "Guides/Pipeline.md's router differs from the one this test runs: copy it again")
    }
}
