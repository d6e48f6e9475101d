@testable import DedupeLifecycle
import DedupeWorkloads
import PushDedupe
import Testing

/// `verify`'s action orderings: every ordering of two taps, two completions, a cancel and a push
/// through the router, under its defaults and with each switch off.
@Suite struct ActionOrderingCheckTests {
    @Test func theDefaultsAreTheRoutersDefaults() {
        #expect(ActionOrderingCheck.routerDefaults.routerConfiguration == RouterConfiguration())
    }

    /// 6! / (2! 2!): the search visits each distinct ordering once, so the defaults cannot hold
    /// by exploring nothing.
    @Test func theDefaultsHoldOverEveryOrdering() throws {
        #expect(ActionOrderingCheck.orderingCount == 180)
        let outcome = try ActionOrderingCheck.run(ActionOrderingCheck.routerDefaults)
        #expect(outcome.orderings == 180)
        #expect(outcome.duplicates == 0)
        #expect(outcome.lost == 0)
        #expect(outcome.counterexample == nil)
    }

    @Test func theLoadingGuardOffYieldsACounterexample() throws {
        var policy = ActionOrderingCheck.routerDefaults
        policy.loadingGuard = false
        let outcome = try ActionOrderingCheck.run(policy)
        #expect(outcome.orderings == 180)
        #expect(outcome.duplicates > 0)
        let example = try #require(outcome.counterexample)
        #expect(example.property == .duplicateScreens)
        #expect(example.steps == [.tap, .tap, .complete, .complete, .cancel, .push])
    }

    /// Only the loading guard is reached by these steps (each checkout has its own receipt, and
    /// one push supersedes nothing); the others must stay clean rather than flake into a
    /// counterexample.
    @Test func eachSwitchTheStepsReachYieldsACounterexample() throws {
        let results = try ActionOrderingCheck.run()
        #expect(results.holds)
        #expect(results.switchesOff.map(\.off) == ActionOrderingCheck.Switch.allCases)
        for (off, outcome) in results.switchesOff {
            #expect(outcome.orderings == 180, "\(off)")
            #expect((outcome.counterexample != nil) == off.isReached, "\(off)")
        }
    }

    @Test func aScriptedCancelRoundTripsThroughTheFileFormat() throws {
        let text = """
            schedule scripted
            intent i1 checkout
            at 0 checkout-tap i1
            at 1 cancel 1
            at 2 end 1 success
            """
        let file = try LifecycleScriptFile(parsing: text, fileName: "cancel.script")
        #expect(file.script.inputs.map(\.kind) == [.checkoutTap, .taskCancel, .taskEnd])
        let rendered = LifecycleScriptFile.render(file.script, persistence: nil)
        #expect(rendered.contains("at 1 cancel 1\n"))
        let outcome = try PolicyRun.simulator(policy: .published, configuration: LifecycleConfiguration(), seed: 0)
            .outcome(file.script)
        #expect(outcome.counts.tasksCancelled == 1)
        #expect(outcome.counts.pushes == 0)
        #expect(outcome.firstInvalidTaskEnd == nil)
    }
}
