import Testing
import PushDedupe
@testable import DedupeWorkloads

@Suite struct WorkloadEventTests {
    @Test func emitCarriesCreatingPayloadsFingerprint() {
        let workload = ScenarioCatalogue.all[0].workload(seed: 1)
        #expect(workload.events.allSatisfy { $0.fingerprint == RouteFingerprint(route: workload.routes[Int($0.route)]) })
    }
}
