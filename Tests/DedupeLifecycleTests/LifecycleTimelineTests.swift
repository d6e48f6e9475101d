@testable import DedupeLifecycle
import PushDedupe
import Testing

/// Hand-computed tiny timelines, one per switch: the failure with the switch off, none with it on.
/// Latencies and dwells have σ = 0, so a fetch or checkout takes exactly its median (100 ms) and
/// the user leaves a screen exactly 10 s after reaching it; nothing fails.
@Suite struct LifecycleTimelineTests {
    static var exact: LifecycleConfiguration {
        var configuration = LifecycleConfiguration()
        configuration.fetchMedianMilliseconds = 100
        configuration.fetchP99Milliseconds = 100
        configuration.checkoutMedianMilliseconds = 100
        configuration.fetchFailureRate = 0
        configuration.dwellMedianMilliseconds = 10_000
        configuration.dwellSigma = 0
        return configuration
    }

    static func run(_ script: LifecycleScript, _ variant: PolicyVariant) throws -> LifecycleCounts {
        try PolicyRun.simulate(script, policy: variant.policy, configuration: exact, seed: 1)
    }

    /// A router script: `build` gets the builder and route A (enabled), B (enabled), D (disabled).
    static func script(
        hostAttached: Bool = true, _ build: (inout LifecycleScriptBuilder, _ a: UInt32, _ b: UInt32, _ d: UInt32) -> Void
    ) -> LifecycleScript {
        var builder = LifecycleScriptBuilder(name: "hand", summary: "", seed: 1, hostAttachedAtStart: hostAttached)
        let a = builder.route("item:A")
        let b = builder.route("item:B")
        let d = builder.route("item:D", tab: .disabled)
        build(&builder, a, b, d)
        return builder.finish()
    }

    /// Tap at 0 ms starts the fetch; the pending route re-emits the envelope at 50 ms, mid-fetch.
    @Test func consumeBeforeAsyncWork() throws {
        let script = Self.script { builder, a, _, _ in
            let intent = builder.intent(wanting: a)
            let envelope = builder.envelope(route: a, intent: intent)
            builder.payload(envelope, at: 0)
            builder.emit(envelope, at: 50)
        }
        let published = try Self.run(script, .published)
        #expect(published.reprocessedEnvelopes == 0)
        #expect(published.tasksStarted == 1)
        #expect(published.suppressedByConsumedSet == 1)
        #expect(published.pushes == 1)
        let after = try Self.run(script, .consumeAfterSuccess)
        #expect(after.reprocessedEnvelopes == 1)
        #expect(after.tasksStarted == 2)
        // The second run cancels the first (the in-flight switch is still on): one push.
        #expect(after.tasksCancelled == 1)
        #expect(after.pushes == 1)
    }

    /// The article's first code (both consume-after-success and keep-in-flight): two pushes.
    @Test func consumeAfterSuccessWithoutCancelPushesTwice() throws {
        let script = Self.script { builder, a, _, _ in
            let intent = builder.intent(wanting: a)
            let envelope = builder.envelope(route: a, intent: intent)
            builder.payload(envelope, at: 0)
            builder.emit(envelope, at: 50)
        }
        var policy = PolicyVariant.consumeAfterSuccess.policy
        policy.cancelInFlightTask = false
        let counts = try PolicyRun.simulate(script, policy: policy, configuration: Self.exact, seed: 1)
        #expect(counts.pushes == 2)
        #expect(counts.duplicateScreens == 1)
    }

    /// A push for a disabled tab at 0 ms, then the host re-attaches at 2 s (replaying it).
    @Test func consumeOnEveryReturn() throws {
        let script = Self.script { builder, _, _, d in
            let intent = builder.intent(wanting: d)
            builder.payload(builder.envelope(route: d, intent: intent), at: 0)
            builder.event(.hostDetach, at: 1_000)
            builder.event(.hostAttach, at: 2_000)
        }
        let published = try Self.run(script, .published)
        #expect(published.reprocessedEnvelopes == 0)
        #expect(published.earlyReturns == 1)
        #expect(published.lostNavigations == 0)
        let successOnly = try Self.run(script, .consumeOnSuccessOnly)
        #expect(successOnly.reprocessedEnvelopes == 1)
        #expect(successOnly.earlyReturns == 2)
    }

    /// No host: the payload waits as the pending route, the ready callback reaches the handler
    /// before the host attaches (early return), then the attach replays it. Consuming on that
    /// return loses the screen (the article defers retries to a separate policy); not consuming
    /// runs the handler twice.
    @Test func noHostEarlyReturnTradesALostScreenForNoReprocessing() throws {
        let script = Self.script(hostAttached: false) { builder, a, _, _ in
            let intent = builder.intent(wanting: a)
            let envelope = builder.envelope(route: a, intent: intent)
            builder.payload(envelope, at: 10)
            builder.emit(envelope, at: 20)
            builder.event(.hostAttach, at: 1_000)
        }
        let published = try Self.run(script, .published)
        #expect(published.earlyReturns == 1)
        #expect(published.pushes == 0)
        #expect(published.lostNavigations == 1)
        let successOnly = try Self.run(script, .consumeOnSuccessOnly)
        #expect(successOnly.reprocessedEnvelopes == 1)
        #expect(successOnly.pushes == 1)
        #expect(successOnly.lostNavigations == 0)
    }

    /// Push A at 0 ms, push B at 50 ms; each fetch takes 100 ms.
    @Test func cancelInFlightTask() throws {
        let script = Self.script { builder, a, b, _ in
            let first = builder.intent(wanting: a)
            builder.payload(builder.envelope(route: a, intent: first), at: 0)
            let second = builder.intent(wanting: b)
            builder.payload(builder.envelope(route: b, intent: second), at: 50)
        }
        let published = try Self.run(script, .published)
        #expect(published.wrongScreens == 0)
        #expect(published.tasksCancelled == 1)
        #expect(published.pushes == 1)
        #expect(published.lostNavigations == 0)
        let keep = try Self.run(script, .keepInFlight)
        // A lands at 100 ms over B's intent, then B at 150 ms.
        #expect(keep.wrongScreens == 1)
        #expect(keep.pushes == 2)
    }

    /// A re-tap of A inside the window is dropped by layer 1. At 50 ms, mid-fetch, the first
    /// fetch's push of A (at 100 ms) serves it; at 200 ms it finds A on top and is served at
    /// once. Neither is lost, and a push of the screen the newest intent wants is not wrong.
    @Test func aWantedIntentWhoseScreenReachesTheTopIsNotLost() throws {
        for retap in [50.0, 200.0] {
            let script = Self.script { builder, a, _, _ in
                builder.payload(builder.envelope(wanting: a), at: 0)
                builder.payload(builder.envelope(wanting: a), at: retap, source: "retap")
            }
            let counts = try Self.run(script, .published)
            #expect(counts.suppressedByWindow == 1, "retap at \(retap) ms")
            #expect(counts.pushes == 1)
            #expect(counts.lostNavigations == 0, "retap at \(retap) ms")
            #expect(counts.wrongScreens == 0)
        }
    }

    static func navigation(_ build: (inout LifecycleScriptBuilder, _ a: UInt32) -> Void) -> LifecycleScript {
        var builder = LifecycleScriptBuilder(name: "hand", summary: "", seed: 1)
        let a = builder.route("detail:42")
        build(&builder, a)
        return builder.finish()
    }

    /// Two taps of one button 100 ms apart.
    @Test func lastRouteGuard() throws {
        let script = Self.navigation { builder, a in
            let intent = builder.intent(wanting: a)
            builder.event(.tap, route: a, intent: intent, at: 0)
            builder.event(.tap, route: a, intent: intent, at: 100)
        }
        let published = try Self.run(script, .published)
        #expect(published.duplicateScreens == 0)
        #expect(published.suppressedByGuard == 1)
        let unguarded = try Self.run(script, .noLastRouteGuard)
        #expect(unguarded.duplicateScreens == 1)
        #expect(unguarded.pushes == 2)
    }

    /// Checkout tapped at 0 and 50 ms; each checkout takes 100 ms and returns a new order.
    @Test func loadingGuard() throws {
        let script = Self.navigation { builder, _ in
            let intent = builder.intent(wanting: .max)
            builder.event(.checkoutTap, intent: intent, at: 0)
            builder.event(.checkoutTap, intent: intent, at: 50)
        }
        let published = try Self.run(script, .published)
        #expect(published.wrongScreens == 0)
        #expect(published.ignoredTaps == 1)
        #expect(published.tasksStarted == 1)
        let unguarded = try Self.run(script, .noLoadingGuard)
        #expect(unguarded.wrongScreens == 1)
        #expect(unguarded.tasksStarted == 2)
        #expect(unguarded.pushes == 2)
    }

    /// A tap, and a child appending the same route 5 ms later.
    @Test func singlePathOwner() throws {
        let script = Self.navigation { builder, a in
            let intent = builder.intent(wanting: a)
            builder.event(.tap, route: a, intent: intent, at: 0)
            builder.event(.childAppend, route: a, intent: intent, at: 5)
        }
        let published = try Self.run(script, .published)
        #expect(published.duplicateScreens == 0)
        let twoOwners = try Self.run(script, .twoPathOwners)
        #expect(twoOwners.duplicateScreens == 1)
        #expect(twoOwners.pushes == 2)
    }

    /// The user leaves the screen at 10 s: a new intent's tap at 12 s passes the guard; the same
    /// intent's tap again counts as a re-push after leaving.
    @Test func dwellThenGoBack() throws {
        let retap = Self.navigation { builder, a in
            builder.event(.tap, route: a, intent: builder.intent(wanting: a), at: 0)
            builder.event(.tap, route: a, intent: builder.intent(wanting: a), at: 12_000)
        }
        let counts = try Self.run(retap, .published)
        #expect(counts.pushes == 2)
        #expect(counts.duplicateScreens == 0)
        #expect(counts.repushedAfterLeave == 0)
        let sameIntent = Self.navigation { builder, a in
            let intent = builder.intent(wanting: a)
            builder.event(.tap, route: a, intent: intent, at: 0)
            builder.event(.tap, route: a, intent: intent, at: 12_000)
        }
        #expect(try Self.run(sameIntent, .published).repushedAfterLeave == 1)
        let stillThere = Self.navigation { builder, a in
            builder.event(.tap, route: a, intent: builder.intent(wanting: a), at: 0)
            builder.event(.tap, route: a, intent: builder.intent(wanting: a), at: 9_000)
        }
        let absorbed = try Self.run(stillThere, .published)
        #expect(absorbed.pushes == 1)
        #expect(absorbed.lostNavigations == 0)
    }

    @Test func badConfigurationThrowsNamingTheParameter() {
        var negativeLatency = LifecycleConfiguration()
        negativeLatency.fetchMedianMilliseconds = -1
        var rateAbove = LifecycleConfiguration()
        rateAbove.fetchFailureRate = 1.5
        var rateBelow = LifecycleConfiguration()
        rateBelow.fetchFailureRate = -0.1
        var zeroDwell = LifecycleConfiguration()
        zeroDwell.dwellMedianMilliseconds = 0
        var negativeCheckout = LifecycleConfiguration()
        negativeCheckout.checkoutMedianMilliseconds = -5
        var p99BelowMedian = LifecycleConfiguration()
        p99BelowMedian.fetchP99Milliseconds = 10
        let cases = [
            ("fetchMedianMilliseconds", negativeLatency, "cannot be negative"), ("fetchFailureRate", rateAbove, "[0, 1]"),
            ("fetchFailureRate", rateBelow, "[0, 1]"), ("dwellMedianMilliseconds", zeroDwell, "positive"),
            ("checkoutMedianMilliseconds", negativeCheckout, "cannot be negative"), ("fetchP99Milliseconds", p99BelowMedian, "median"),
        ]
        for (parameter, configuration, reason) in cases {
            do {
                _ = try PolicyRun.run(seed: 1, configuration: configuration, scenarios: ["button-double-tap"])
                Issue.record("\(parameter): expected an error")
            } catch let error as LifecycleConfigurationError {
                #expect(error.parameter == parameter)
                #expect(error.description.contains(parameter) && error.description.contains(reason), "\(error)")
            } catch {
                Issue.record("unexpected \(error)")
            }
            #expect(throws: LifecycleConfigurationError.self) {
                _ = try LifecycleSimulator(
                    window: PublishedLiteralWindow(configuration: .init()), consumed: UnboundedSet(configuration: .init()),
                    policy: .published, configuration: configuration, seed: 1)
            }
        }
    }

    @Test func defaultsArePublishedAndDescribed() throws {
        try LifecycleConfiguration().validate()
        let sigma = LifecycleConfiguration().latencySigma
        #expect(abs(150 * DeterministicMath.exp(sigma * LifecycleConfiguration.z99) - 2_000) < 1e-6)
        #expect(PolicyVariant.published.policy == .published)
        for variant in PolicyVariant.allCases where variant != .published {
            #expect(variant.policy != .published, "\(variant) must turn a switch off")
        }
    }
}
