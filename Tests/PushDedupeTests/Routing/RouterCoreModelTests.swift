import PushDedupe
import Testing

/// `RouterCore` against `ReferenceRouter`, step by step, plus the guarantees its doc comment
/// states, checked on every prefix: exhaustively over short sequences, and on long seeded random
/// ones under every configuration.
@Suite struct RouterCoreModelTests {
    /// One sequence's state: the core, the model, and what the guarantees need to remember.
    struct Run {
        var core: RouterCore<String>
        var reference: ReferenceRouter
        var steps: [RouterStep] = []
        /// Commits per envelope, and the envelopes the deduplicator let through.
        var commits: [EnvelopeID: Int] = [:]
        var navigated: [EnvelopeID] = []
        var liveEnvelopes: [WorkToken: EnvelopeID] = [:]
        var effects: [RouterEffect<String>] = []

        init(configuration: RouterConfiguration) {
            core = RouterCore(configuration: configuration)
            reference = ReferenceRouter(configuration: configuration)
        }

        /// Applies `step` to both; returns a failure, described only when there is one.
        mutating func apply(_ step: RouterStep) -> String? {
            let event = step.event(path: reference.path, index: steps.count)
            steps.append(step)
            effects.removeAll(keepingCapacity: true)
            core.handle(event, into: &effects)
            let expected = reference.apply(event)
            guard effects == expected else { return failure("effects \(effects), expected \(expected)") }
            guard core.path == reference.path else { return failure("path \(core.path), expected \(reference.path)") }
            guard core.workInFlight == reference.workInFlight else {
                return failure("work in flight \(core.workInFlight), expected \(reference.workInFlight)")
            }
            guard core.isBusy(RouterStep.action) == reference.isBusy(RouterStep.action) else { return failure("isBusy differs") }
            return checkGuarantees(event)
        }

        private mutating func checkGuarantees(_ event: RouterEvent<String>) -> String? {
            if case let .routeRequested(_, envelope, .navigated) = event { navigated.append(envelope) }
            for effect in effects {
                if case let .commitConsume(envelope, _) = effect { commits[envelope, default: 0] += 1 }
                if case let .startWork(token, _) = effect, let envelope = navigated.last { liveEnvelopes[token] = envelope }
            }
            let live = Set(core.workInFlight.compactMap { liveEnvelopes[$0] })
            let configuration = core.configuration
            for envelope in navigated {
                let wanted = live.contains(envelope) && configuration.consume == .reserveThenCommit ? 0 : 1
                guard commits[envelope, default: 0] == wanted else {
                    return failure("\(envelope) committed \(commits[envelope, default: 0]) times, expected \(wanted)")
                }
            }
            if configuration.cancelsSupersededWork, core.workInFlight.count > 1 { return failure("two works in flight") }
            if configuration.topGuard == .everyPush, zip(core.path, core.path.dropFirst()).contains(where: ==) {
                return failure("a route twice on top of itself: \(core.path)")
            }
            return nil
        }

        private func failure(_ what: String) -> String {
            "\(core.configuration) after \(steps): \(what)"
        }
    }

    /// Every sequence of up to `length` steps over the alphabet, sharing prefixes (depth first).
    static func exhaust(_ configuration: RouterConfiguration, length: Int) -> (sequences: Int, failure: String?) {
        var sequences = 0
        func visit(_ run: Run, depth: Int) -> String? {
            guard depth < length else { return nil }
            for step in RouterStep.alphabet {
                var next = run
                if let failure = next.apply(step) { return failure }
                sequences += 1
                if let failure = visit(next, depth: depth + 1) { return failure }
            }
            return nil
        }
        let failure = visit(Run(configuration: configuration), depth: 0)
        return (sequences, failure)
    }

    @Test(arguments: [RouterConfiguration(), .published])
    func everySequenceOfFourStepsMatchesTheModel(configuration: RouterConfiguration) {
        let (sequences, failure) = Self.exhaust(configuration, length: 4)
        #expect(failure == nil, "\(failure ?? "")")
        #expect(sequences == 17 + 17 * 17 + 17 * 17 * 17 + 17 * 17 * 17 * 17)
    }

    @Test func everySequenceOfThreeStepsMatchesTheModelUnderEveryConfiguration() {
        for configuration in RouterConfiguration.everyCombination {
            let (_, failure) = Self.exhaust(configuration, length: 3)
            #expect(failure == nil, "\(failure ?? "")")
        }
    }

    /// Long sequences, whose token steps name work the core really started.
    @Test func seededRandomSequencesMatchTheModelUnderEveryConfiguration() {
        var random = SplitMix64(seed: 42)
        for configuration in RouterConfiguration.everyCombination {
            for _ in 0..<60 {
                var run = Run(configuration: configuration)
                for _ in 0..<40 {
                    let issued = UInt64(run.reference.works.count)
                    let token = UInt64.random(in: 0...issued, using: &random)
                    let route = ["A", "B", "C"].randomElement(using: &random)!
                    let step: RouterStep = switch Int.random(in: 0..<10, using: &random) {
                    case 0, 1: .request(route, RoutingDecision.allCases.randomElement(using: &random)!)
                    case 2: .button(route)
                    case 3, 4: .completed(token)
                    case 5: Bool.random(using: &random) ? .failed(token) : .cancelled(token)
                    case 6: .backSwipe
                    case 7: .linkAppend(route)
                    case 8: .trigger
                    default: .finish
                    }
                    if let failure = run.apply(step) {
                        Issue.record("\(failure)")
                        return
                    }
                }
            }
        }
    }
}
