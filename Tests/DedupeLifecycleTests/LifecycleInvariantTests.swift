@testable import DedupeLifecycle
import DedupeWorkloads
import PushDedupe
import Testing

/// Invariants over seeded random scripts of every input kind, under every variant.
@Suite struct LifecycleInvariantTests {
    /// A random script of `inputs` inputs over four routes (one disabled, one without a tab),
    /// with relaunches and backgrounds too when `lifecycle`.
    static func randomScript(seed: UInt64, inputs: Int, lifecycle: Bool = false) -> LifecycleScript {
        var random = SplitMix64(seed: seed)
        var builder = LifecycleScriptBuilder(name: "random", summary: "", seed: seed, hostAttachedAtStart: random.bernoulli(0.5))
        let routes = [
            builder.route("item:1"), builder.route("item:2"), builder.route("item:3", tab: .disabled),
            builder.route("item:4", tab: .noTab),
        ]
        var envelopes: [Int32] = []
        var time = 0.0
        var intent: Int32 = -1
        for _ in 0..<inputs {
            time += random.exponential(mean: 150)
            let route = routes[random.uniformInt(below: routes.count)]
            if intent < 0 || random.bernoulli(0.6) { intent = builder.intent(wanting: route) }
            switch random.uniformInt(below: lifecycle ? 9 : 7) {
            case 0, 1:
                let envelope = builder.envelope(route: route, intent: intent)
                envelopes.append(envelope)
                builder.payload(envelope, at: time)
            case 2 where !envelopes.isEmpty:
                builder.emit(envelopes[random.uniformInt(below: envelopes.count)], at: time)
            case 3:
                builder.event(random.bernoulli(0.5) ? .hostAttach : .hostDetach, at: time)
            case 4:
                builder.event(.tap, route: route, intent: intent, at: time)
            case 5:
                builder.event(.childAppend, route: route, intent: intent, at: time)
            case 2, 6:
                builder.event(.checkoutTap, intent: builder.intent(wanting: .max), at: time)
            case 7:
                builder.event(.background, at: time)
            default:
                builder.event(.relaunch, at: time)
            }
        }
        return builder.finish()
    }

    static var configuration: LifecycleConfiguration {
        var configuration = LifecycleConfiguration()
        configuration.fetchFailureRate = 0.2
        configuration.dwellMedianMilliseconds = 2_000
        return configuration
    }

    static func simulator(_ variant: PolicyVariant, seed: UInt64) throws -> LifecycleSimulator<PublishedLiteralWindow, UnboundedSet> {
        try LifecycleSimulator(
            window: PublishedLiteralWindow(configuration: .init(window: .milliseconds(500), capacity: 4_096)),
            consumed: UnboundedSet(configuration: .init()), policy: variant.policy, configuration: configuration, seed: seed)
    }

    /// At random cut-off points: every screen on the path was pushed by the owner it is filed
    /// under (no more often than that owner pushed it), and only a second owner's appends are
    /// filed under the child; every started task ended exactly once.
    @Test(arguments: 0..<12)
    func pathHoldsOnlyItsOwnersPushesAndEveryTaskEnds(seed: Int) throws {
        let full = Self.randomScript(seed: UInt64(seed), inputs: 300, lifecycle: seed % 2 == 1)
        var random = SplitMix64(seed: UInt64(seed) ^ 0xc0ffee)
        for _ in 0..<4 {
            var script = full
            script.inputs = Array(full.inputs.prefix(1 + random.uniformInt(below: full.inputs.count)))
            for variant in PolicyVariant.allCases {
                let run = try Self.simulator(variant, seed: UInt64(seed)).runRecording(script)
                let counts = run.counts
                #expect(counts.tasksStarted == counts.tasksCompleted + counts.tasksFailed + counts.tasksCancelled + counts.tasksKilled, "\(variant)")
                #expect(run.pushes.count == counts.pushes)
                if variant.policy.singlePathOwner { #expect(!run.pushes.contains { $0.owner != 0 }, "\(variant)") }
                var pushed: [UInt64: Int] = [:]
                for push in run.pushes { pushed[UInt64(push.route) << 8 | UInt64(push.owner), default: 0] += 1 }
                for screen in run.path {
                    let key = UInt64(screen.route) << 8 | UInt64(screen.owner)
                    #expect((pushed[key] ?? 0) > 0, "\(variant): \(screen) on the path, never pushed by its owner")
                    pushed[key, default: 0] -= 1
                }
                #expect(counts.duplicateScreens <= counts.pushes)
            }
        }
    }

    @Test func countsAreIdenticalAcrossRunsForOneSeed() throws {
        for seed in [UInt64(3), 42] {
            let script = Self.randomScript(seed: seed, inputs: 500)
            for variant in PolicyVariant.allCases {
                let first = try Self.simulator(variant, seed: seed)
                let second = try Self.simulator(variant, seed: seed)
                #expect(first.run(script) == second.run(script))
            }
        }
        let first = try PolicyRun.run(seed: 7, scenarios: ["reemit-during-fetch", "mixed-default"], scale: 0.05)
        let second = try PolicyRun.run(seed: 7, scenarios: ["reemit-during-fetch", "mixed-default"], scale: 0.05)
        #expect(first == second)
        #expect(first.rows.count == 2 * PolicyVariant.allCases.count)
    }

    /// On its own scenario, each switch in its protecting position leaves its failure at 0, and
    /// in the other position brings it back: the six published fixes, and the two switches off
    /// in the published code the other way round. A scenario of process death is checked under
    /// `after-every-consume`, the store that keeps every write.
    @Test func everyFixHoldsOnItsScenario() throws {
        let built = LifecycleScenarioCatalogue.all.filter { $0.exercises != nil }
        let results = try PolicyRun.run(seed: 42, scenarios: built.map(\.id), scale: 0.05)
        let covered = Set(built.compactMap(\.exercises))
        #expect(covered == Set(PolicyVariant.allCases.filter { $0 != .published }))
        for scenario in built {
            let variant = try #require(scenario.exercises)
            let failure = try #require(variant.protectedFailure)
            func row(_ variant: PolicyVariant) -> PolicyResults.Row? {
                let rows = results.rows.filter { $0.scenario == scenario.id && $0.variant == variant }
                return rows.first { $0.persistence == .afterEveryConsume } ?? rows.first
            }
            let on = try #require(row(.published))
            let off = try #require(row(variant))
            let (protected, unprotected) = variant.turnsSwitchOn ? (off, on) : (on, off)
            #expect(failure.count(in: protected.counts) == 0, "\(scenario.id)")
            #expect(failure.count(in: unprotected.counts) > 0, "\(scenario.id)")
        }
    }

    @Test func reprocessingUnderConsumeAfterSuccessRisesWithFetchLatency() throws {
        let results = try PolicyRun.run(seed: 42, scenarios: [PolicyRun.sweepScenario])
        for policy in ["consume-after-success", "consume-after-success+keep-in-flight"] {
            let points = results.sweep.filter { $0.policy == policy }.sorted { $0.fetchMedianMilliseconds < $1.fetchMedianMilliseconds }
            #expect(points.count == PolicyRun.sweepMedians.count)
            let first = try #require(points.first)
            let last = try #require(points.last)
            #expect(last.reprocessedEnvelopes > first.reprocessedEnvelopes)
            if policy.hasSuffix("keep-in-flight") { #expect(last.duplicateScreens > first.duplicateScreens) }
        }
        #expect(results.sweep.filter { $0.policy == "published" }.allSatisfy { $0.reprocessedEnvelopes == 0 && $0.duplicateScreens == 0 })
    }

    @Test func unknownIdsAreRejected() {
        #expect(throws: LifecycleSelectionError.self) { try PolicyRun.run(seed: 1, scenarios: ["no-such"]) }
        #expect(throws: LifecycleSelectionError.self) { try PolicyRun.run(seed: 1, variants: ["no-such"]) }
    }

    /// The path model itself against a plain array, with random pushes and pops.
    @Test(arguments: 0..<8)
    func dwellingPathMatchesAPlainStack(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        var path = _DwellingPath()
        var reference: [_DwellingPath.Entry] = []
        var now: Int64 = 0
        for _ in 0..<2_000 {
            now += Int64(random.uniformInt(below: 1_000))
            while let popped = path.popIfDue(at: now) {
                #expect(popped == reference.removeLast())
                path.dwellOnRevealed(Int64(random.uniformInt(below: 3_000)))
            }
            if random.bernoulli(0.6) {
                let entry = _DwellingPath.Entry(route: UInt32(random.uniformInt(below: 4)), owner: UInt8(random.uniformInt(below: 2)), intent: 0)
                path.push(entry, at: now, dwell: Int64(random.uniformInt(below: 3_000)))
                reference.append(entry)
                if reference.count > _DwellingPath.capacity { reference.removeFirst() }
            }
            #expect(path.screens == reference)
            #expect(path.top == (reference.last?.route ?? .max))
            for owner: UInt8 in 0...1 {
                #expect(path.lastRoute(ownedBy: owner) == (reference.last { $0.owner == owner }?.route ?? .max))
            }
        }
    }
}
