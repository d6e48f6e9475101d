import DedupeWorkloads
import Foundation
import PushDedupe
import Testing

/// Guides/Adopting.md's adoption, exactly as it tells an app to write it (`RecommendedPreset.v3` with its
/// store at a file, every event keyed on the push's id, a new deduplicator on the same file at
/// each launch), over device traffic with relaunches: every delivery of a push that an earlier launch
/// navigated is suppressed, which is what a consumed set lost at the kill cannot do.
@Suite struct AdoptionOverTraceTests {
    @MainActor @Test(arguments: ["stale-initial-notification", "messaging-app-week"])
    func everyReplayAcrossARelaunchIsSuppressed(scenario id: String) throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: id)).workload(seed: 42, scale: 0.2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-adoption-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("consumed-routes.pdcs")
        let clock = ManualClock()
        var dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL, clock: .manual(clock))
        var navigatedBefore: Set<UInt32> = []
        var navigatedNow: Set<UInt32> = []
        var replays = 0
        var relaunches = 0
        var wrongly: [String] = []
        for (index, event) in workload.events.enumerated() {
            clock.set(to: event.time)
            switch event.kind {
            case .relaunch:
                relaunches += 1
                navigatedBefore.formUnion(navigatedNow)
                navigatedNow = []
                dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, storeURL: storeURL, clock: .manual(clock))
            case .background:
                dedupe.didEnterBackground()
            case .payload, .emit:
                // In-app navigations carry no push id; the guide keys them on the app's own UUID.
                guard event.push != WorkloadEvent.noPush else { continue }
                let pushID = workload.token(of: workload.pushes[Int(event.push)])
                let decision = event.kind == .payload
                    ? dedupe.receivePayload(route: workload.routes[Int(event.route)], pushID: pushID)
                    : dedupe.receiveEmit(pushID: pushID)
                if decision == .navigated { navigatedNow.insert(event.push) }
                if navigatedBefore.contains(event.push) {
                    replays += 1
                    if decision == .navigated { wrongly.append("event \(index)") }
                }
            }
        }
        #expect(relaunches > 0 && replays > 0, "\(id): \(relaunches) relaunches, \(replays) replays across one")
        #expect(wrongly.isEmpty, "\(id): navigated again after a relaunch: \(wrongly.prefix(5))")
    }
}
