import DedupeWorkloads
import PushDedupe

/// Runs every ordering of a ``LifecycleShape`` through the lifecycle simulator and checks each
/// against the named properties (one per ``LifecycleFailure``): what `dedupe-bench verify`
/// prints. See `Guides/Policies.md` § Verify.
///
/// The search is a depth-first walk over the simulator's own state, copied at each branch. At
/// each step it may deliver any shape event whose predecessors happened (a payload after a
/// short or a long gap, when the window holds anything a long gap would expire), end any running
/// task (in success or failure; a task asked to cancel just ends), or let the user go back
/// (within the shape's bound). An ordering ends when every event happened and every task ended;
/// its script is scripted scheduling with 1 µs short gaps and window + 1 ms long ones, so a
/// counterexample replays exactly under `dedupe-bench policies --script`.
package enum LifecycleVerifier {
    /// Every ordering of `shape` under `policy` with `persistence`.
    ///
    /// - Parameter limit: stop after this many orderings (``VerifyOutcome/limitReached``).
    /// - Throws: ``LifecycleConfigurationError`` for a bad `configuration`.
    /// - Complexity: O(orderings × depth) simulator steps.
    package static func verify(
        _ shape: LifecycleShape, policy: LifecyclePolicy, persistence: Persistence,
        configuration: LifecycleConfiguration = LifecycleConfiguration(), limit: Int = 20_000_000
    ) throws(LifecycleConfigurationError) -> VerifyOutcome {
        precondition(shape.events.count <= 32, "a shape has at most 32 events")
        var configured = configuration
        configured.persistence = persistence
        let simulator = try PolicyRun.simulator(policy: policy, configuration: configured, seed: 0)
        var search = _VerifySearch(shape: shape, windowMilliseconds: configuration.windowMilliseconds, limit: limit)
        search.explore(_VerifyNode(run: simulator.makeRun(shape.script), eventCount: shape.events.count))
        return search.outcome
    }

    /// Calls `body` with every ordering's script and the counts the search reached for it, for
    /// tests that replay each one from scratch.
    static func forEachOrdering(
        _ shape: LifecycleShape, policy: LifecyclePolicy, persistence: Persistence,
        _ body: @escaping (LifecycleScript, LifecycleCounts) -> Void
    ) throws(LifecycleConfigurationError) {
        var configured = LifecycleConfiguration()
        configured.persistence = persistence
        let simulator = try PolicyRun.simulator(policy: policy, configuration: configured, seed: 0)
        var search = _VerifySearch(shape: shape, windowMilliseconds: configured.windowMilliseconds, limit: .max)
        search.leafObserver = body
        search.explore(_VerifyNode(run: simulator.makeRun(shape.script), eventCount: shape.events.count))
    }
}

/// What every ordering of one shape did under one policy and persistence.
package struct VerifyOutcome: Sendable {
    /// Orderings explored: complete runs, each counted once.
    package var orderings = 0
    /// Per failure (``LifecycleFailure/allCases`` order), the orderings with at least one.
    package var violations = [Int](repeating: 0, count: LifecycleFailure.allCases.count)
    /// Per failure, the violating orderings where some failure of the column has a rule that
    /// is a switch turned off or unexplained (for `published`, they must be 0).
    package var unexplained = [Int](repeating: 0, count: LifecycleFailure.allCases.count)
    /// Violating orderings by failure and rule (an ordering counts under each rule it shows).
    package var byRule: [RuleCount] = []
    /// The shortest counterexample per failure and rule.
    package var counterexamples: [Counterexample] = []
    /// The search stopped at its limit: the counts are a lower bound.
    package var limitReached = false

    package struct RuleCount: Sendable, Equatable {
        package var failure: LifecycleFailure
        package var rule: FailureRule
        package var orderings: Int
    }

    /// The violations of `failure`.
    package func violations(of failure: LifecycleFailure) -> Int {
        violations[LifecycleFailure.allCases.firstIndex(of: failure)!]
    }

    /// Orderings violating `failure` with `rule` among its causes.
    package func orderings(violating failure: LifecycleFailure, by rule: FailureRule) -> Int {
        byRule.first { $0.failure == failure && $0.rule == rule }?.orderings ?? 0
    }

    /// The shortest counterexample for `failure` with `rule` among its causes.
    package func counterexample(_ failure: LifecycleFailure, by rule: FailureRule) -> Counterexample? {
        counterexamples.first { $0.failure == failure && $0.rule == rule }
    }
}

/// One ordering that violates a property: the shortest found for its failure and rule.
package struct Counterexample: Sendable {
    package var failure: LifecycleFailure
    package var rule: FailureRule
    /// Inputs in the ordering (events, task ends, backs).
    package var steps: Int
    /// The ordering as a scripted script.
    package var script: LifecycleScript
}

/// One state of the search.
struct _VerifyNode {
    var run: _LifecycleRun<PublishedLiteralWindow, UnboundedSet>
    /// Shape events delivered, as bits.
    var done: UInt32 = 0
    var time: Int64 = 0
    /// Increments at every long gap and relaunch: two events of one epoch are inside the window.
    var epoch: Int32 = 0
    /// A payload reached layer 1 in this epoch, so the window holds an entry a long gap expires.
    var epochHasPayload = false
    var backs = 0
    var eventEpoch: [Int32]

    init(run: _LifecycleRun<PublishedLiteralWindow, UnboundedSet>, eventCount: Int) {
        self.run = run
        eventEpoch = [Int32](repeating: -1, count: eventCount)
    }
}

struct _VerifySearch {
    let shape: LifecycleShape
    let afterMasks: [UInt32]
    /// The event each one must share the window with, or -1 (symmetric).
    let partners: [Int]
    let shortGap: Int64 = 1_000
    let longGap: Int64
    let limit: Int
    var steps: [LifecycleScript.Input] = []
    var outcome = VerifyOutcome()
    /// Tests only: sees every ordering.
    var leafObserver: ((LifecycleScript, LifecycleCounts) -> Void)?

    init(shape: LifecycleShape, windowMilliseconds: Double, limit: Int) {
        self.shape = shape
        self.limit = limit
        longGap = LifecycleScriptBuilder.nanoseconds(windowMilliseconds + 1)
        afterMasks = shape.events.map { $0.after.reduce(UInt32(0)) { $0 | 1 << UInt32($1) } }
        var partners = [Int](repeating: -1, count: shape.events.count)
        for (index, event) in shape.events.enumerated() {
            if case .withinWindow(let other) = event.gap {
                partners[index] = other
                partners[other] = index
            }
        }
        self.partners = partners
    }

    mutating func explore(_ node: _VerifyNode) {
        guard outcome.orderings < limit else {
            outcome.limitReached = true
            return
        }
        var eventsLeft = false
        for index in shape.events.indices where node.done & (1 << UInt32(index)) == 0 {
            eventsLeft = true
            guard afterMasks[index] & ~node.done == 0 else { continue }
            let partner = partners[index]
            let partnerDone = partner >= 0 && node.done & (1 << UInt32(partner)) != 0
            // Its partner happened in an earlier epoch: it can no longer fall inside its window.
            if partnerDone && node.eventEpoch[partner] != node.epoch { continue }
            let canGoLong = shape.events[index].input.kind == .payload && node.epochHasPayload && !partnerDone
            for gap in 0..<(canGoLong ? 2 : 1) {
                var child = node
                deliver(index, long: gap == 1, to: &child)
                explore(child)
                steps.removeLast()
            }
        }
        var tasksRunning = false
        for task in node.run.oldestRunningTask..<node.run.tasks.count where node.run.tasks[task].state == .running {
            tasksRunning = true
            // A task asked to cancel ends cancelled whatever its outcome.
            for outcome in 0..<(node.run.tasks[task].cancelRequested ? 1 : 2) {
                let succeeds = outcome == 0
                var child = node
                child.time += shortGap
                step(.init(time: child.time, kind: .taskEnd, source: source(.taskEnd), task: Int32(task), succeeds: succeeds), &child)
                explore(child)
                steps.removeLast()
            }
        }
        if node.backs < shape.backs && !node.run.path.isEmpty {
            var child = node
            child.time += shortGap
            child.backs += 1
            step(.init(time: child.time, kind: .back, source: source(.back)), &child)
            explore(child)
            steps.removeLast()
        }
        if !eventsLeft && !tasksRunning { record(node) }
    }

    private func source(_ kind: LifecycleScript.Input.Kind) -> UInt16 {
        UInt16(shape.script.sources.firstIndex(of: LifecycleScriptBuilder.defaultSource(of: kind)) ?? 0)
    }

    private mutating func deliver(_ index: Int, long: Bool, to node: inout _VerifyNode) {
        if long {
            node.time += longGap
            node.epoch += 1
            node.epochHasPayload = false
        } else {
            node.time += shortGap
        }
        var input = shape.events[index].input
        input.time = node.time
        step(input, &node)
        node.done |= 1 << UInt32(index)
        node.eventEpoch[index] = node.epoch
        switch input.kind {
        case .payload: node.epochHasPayload = true
        case .relaunch:
            // A fresh window: nothing left to expire.
            node.epoch += 1
            node.epochHasPayload = false
        default: break
        }
    }

    private mutating func step(_ input: LifecycleScript.Input, _ node: inout _VerifyNode) {
        node.run.handle(input, index: steps.count, shape.script)
        steps.append(input)
    }

    private mutating func record(_ node: _VerifyNode) {
        outcome.orderings += 1
        var final = node.run
        final.finish(shape.script)
        if let leafObserver {
            var script = shape.script
            script.inputs = steps
            leafObserver(script, final.counts)
        }
        for (column, failure) in LifecycleFailure.allCases.enumerated() where failure.count(in: final.counts) > 0 {
            outcome.violations[column] += 1
            if !final.causes.all(failure, in: { $0.category != .switchOff && $0.category != .unexplained }) {
                outcome.unexplained[column] += 1
            }
            for rule in final.causes.rules(of: failure) {
                if let index = outcome.byRule.firstIndex(where: { $0.failure == failure && $0.rule == rule }) {
                    outcome.byRule[index].orderings += 1
                } else {
                    outcome.byRule.append(.init(failure: failure, rule: rule, orderings: 1))
                }
                let existing = outcome.counterexamples.firstIndex { $0.failure == failure && $0.rule == rule }
                guard existing.map({ steps.count < outcome.counterexamples[$0].steps }) ?? true else { continue }
                var script = shape.script
                script.inputs = steps
                let example = Counterexample(failure: failure, rule: rule, steps: steps.count, script: script)
                if let existing { outcome.counterexamples[existing] = example } else { outcome.counterexamples.append(example) }
            }
        }
    }
}
