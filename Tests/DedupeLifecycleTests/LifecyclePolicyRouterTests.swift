@testable import DedupeLifecycle
import PushDedupe
import Testing

/// Each router and view switch of the simulator is a configuration of the shipped router core.
@Suite struct LifecyclePolicyRouterTests {
    @Test func thePublishedPolicyIsThePublishedRouter() {
        #expect(LifecyclePolicy.published.routerConfiguration == RouterConfiguration.published)
    }

    @Test(arguments: PolicyVariant.allCases)
    func eachVariantFlipsItsSettingOfTheCore(variant: PolicyVariant) {
        var expected = RouterConfiguration.published
        switch variant {
        case .published, .consumeAfterSuccess, .consumeOnSuccessOnly, .twoPathOwners: break
        case .keepInFlight: expected.cancelsSupersededWork = false
        case .noLastRouteGuard: expected.topGuard = []
        case .noLoadingGuard: expected.loadingGuard = false
        case .routerTopGuard: expected.topGuard = .everyPush
        case .reserveThenCommit: expected.consume = .reserveThenCommit
        }
        #expect(variant.policy.routerConfiguration == expected)
    }
}
