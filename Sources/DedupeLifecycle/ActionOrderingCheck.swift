import DedupeWorkloads
import PushDedupe

/// Every ordering of two taps of the checkout action, two completions, a cancel and a push, run
/// by the policy simulator (so by the shipped ``RouterCore``) under the router's default
/// configuration and with each of its switches off: `verify`'s action-ordering section. See
/// `Guides/Policies.md` § Verify.
///
/// Each step is a scripted input:
/// - tap: a `checkoutTap`;
/// - complete: the oldest running checkout ends in success (`taskEnd`); nothing when none runs;
/// - cancel: the oldest running checkout not yet cancelled is cancelled (`taskCancel`); nothing
///   when none runs;
/// - push: a payload for `item:1`, whose detail fetch the router starts.
///
/// Once every step happened, the tasks still running end in success, oldest first, so every
/// ordering is judged settled. Wanted: a tap while no checkout runs starts a wanted checkout; a
/// tap while one runs, cancelled or not, is a duplicate; a cancelled checkout wants nothing; the
/// push's screen is wanted. A duplicate screen is a screen pushed onto itself or a receipt of a
/// duplicate tap's checkout; a lost navigation is a wanted screen that never showed.
package enum ActionOrderingCheck {
    package enum Step: String, Sendable, CaseIterable {
        case tap
        case complete
        case cancel
        case push
    }

    /// The router switches turned off one at a time.
    package enum Switch: String, Sendable, CaseIterable {
        case loadingGuard = "loading-guard"
        case topOfStackGuard = "top-of-stack-guard"
        case cancelsSupersededWork = "cancels-superseded-work"

        /// Whether these steps can reach the switch. The top-of-stack guard needs a screen pushed
        /// twice, and each checkout has its own receipt; the cancel of superseded work needs a
        /// second route request, and there is one push.
        package var isReached: Bool { self == .loadingGuard }

        func turnOff(_ policy: inout LifecyclePolicy) {
            switch self {
            case .loadingGuard: policy.loadingGuard = false
            case .topOfStackGuard:
                policy.lastRouteGuard = false
                policy.routerTopGuard = false
            case .cancelsSupersededWork: policy.cancelInFlightTask = false
            }
        }
    }

    /// The multiset every ordering permutes.
    package static let steps: [Step] = [.tap, .tap, .complete, .complete, .cancel, .push]

    /// The multinomial number of orderings of ``steps``: 6! / (2! 2! 1! 1!) = 180.
    package static var orderingCount: Int {
        func factorial(_ n: Int) -> Int { (1...max(1, n)).reduce(1, *) }
        return Step.allCases.reduce(factorial(steps.count)) { count, step in
            count / factorial(steps.filter { $0 == step }.count)
        }
    }

    /// The policy whose router configuration is ``RouterConfiguration/init()``.
    package static var routerDefaults: LifecyclePolicy {
        var policy = LifecyclePolicy()
        policy.routerTopGuard = true
        policy.reserveThenCommit = true
        return policy
    }

    /// The defaults, then each switch off.
    ///
    /// - Throws: ``LifecycleConfigurationError`` for a bad `configuration`.
    package static func run(
        configuration: LifecycleConfiguration = LifecycleConfiguration()
    ) throws(LifecycleConfigurationError) -> ActionOrderingResults {
        var switchesOff: [(off: Switch, outcome: ActionOrderingOutcome)] = []
        for off in Switch.allCases {
            var policy = routerDefaults
            off.turnOff(&policy)
            switchesOff.append((off, try run(policy, configuration: configuration)))
        }
        return ActionOrderingResults(defaults: try run(routerDefaults, configuration: configuration), switchesOff: switchesOff)
    }

    /// Every ordering under `policy`.
    ///
    /// - Complexity: O(orderings × steps) simulator steps.
    package static func run(
        _ policy: LifecyclePolicy, configuration: LifecycleConfiguration = LifecycleConfiguration()
    ) throws(LifecycleConfigurationError) -> ActionOrderingOutcome {
        var search = _ActionOrderingSearch()
        let simulator = try PolicyRun.simulator(policy: policy, configuration: configuration, seed: 0)
        var run = simulator.makeRun(search.script)
        run.pushLog = []
        search.explore(_ActionOrderingNode(run: run), remaining: [2, 2, 1, 1])
        return search.outcome
    }
}

/// What every ordering did under one policy.
package struct ActionOrderingOutcome: Sendable {
    package var orderings = 0
    /// Orderings with a duplicate screen.
    package var duplicates = 0
    /// Orderings with a lost wanted navigation.
    package var lost = 0
    /// The first violating ordering in the search's order, and the property it violates.
    package var counterexample: (steps: [ActionOrderingCheck.Step], property: LifecycleFailure)?

    package var violations: Int { duplicates + lost }
}

/// The defaults and each switch off.
package struct ActionOrderingResults: Sendable {
    package var defaults: ActionOrderingOutcome
    package var switchesOff: [(off: ActionOrderingCheck.Switch, outcome: ActionOrderingOutcome)]

    /// Every ordering explored, once per policy, was complete; the defaults violate nothing; each
    /// switch the steps reach yields a counterexample.
    package var holds: Bool {
        let complete = ([defaults] + switchesOff.map(\.outcome)).allSatisfy { $0.orderings == ActionOrderingCheck.orderingCount }
        return complete && defaults.violations == 0
            && switchesOff.allSatisfy { !$0.off.isReached || $0.outcome.counterexample != nil }
    }
}

struct _ActionOrderingNode {
    var run: _LifecycleRun<PublishedLiteralWindow, UnboundedSet>
    /// Checkout tasks (by task index) started by a tap while another checkout ran.
    var duplicateTasks: UInt64 = 0
    var time: Int64 = 0
}

struct _ActionOrderingSearch {
    let script: LifecycleScript
    let item: UInt32
    let checkout: Int32
    let envelope: Int32
    let sources: (tap: UInt16, push: UInt16, end: UInt16, cancel: UInt16)
    var steps: [ActionOrderingCheck.Step] = []
    var outcome = ActionOrderingOutcome()

    init() {
        var builder = LifecycleScriptBuilder(name: "action-orderings", summary: "verify action orderings", seed: 0, scheduling: .scripted)
        item = builder.route("item:1")
        checkout = builder.intent(wanting: .max)
        envelope = builder.envelope(wanting: item)
        sources = (
            builder.source(LifecycleScriptBuilder.defaultSource(of: .checkoutTap)),
            builder.source(LifecycleScriptBuilder.defaultSource(of: .payload)),
            builder.source(LifecycleScriptBuilder.defaultSource(of: .taskEnd)),
            builder.source(LifecycleScriptBuilder.defaultSource(of: .taskCancel)))
        script = builder.finish()
    }

    /// `remaining` counts the steps left, in ``ActionOrderingCheck/Step/allCases`` order.
    mutating func explore(_ node: _ActionOrderingNode, remaining: [Int]) {
        guard remaining.contains(where: { $0 > 0 }) else {
            judge(node)
            return
        }
        for (kind, step) in ActionOrderingCheck.Step.allCases.enumerated() where remaining[kind] > 0 {
            var child = node
            apply(step, to: &child)
            var left = remaining
            left[kind] -= 1
            steps.append(step)
            explore(child, remaining: left)
            steps.removeLast()
        }
    }

    private func apply(_ step: ActionOrderingCheck.Step, to node: inout _ActionOrderingNode) {
        node.time += 1_000
        let running = runningCheckouts(node.run)
        switch step {
        case .tap:
            let started = node.run.tasks.count
            handle(.init(time: node.time, kind: .checkoutTap, intent: checkout, source: sources.tap), &node)
            if node.run.tasks.count > started, !running.isEmpty { node.duplicateTasks |= 1 << UInt64(started) }
        case .complete:
            guard let oldest = running.first else { return }
            handle(.init(time: node.time, kind: .taskEnd, source: sources.end, task: Int32(oldest)), &node)
        case .cancel:
            guard let oldest = running.first(where: { !node.run.tasks[$0].cancelRequested }) else { return }
            handle(.init(time: node.time, kind: .taskCancel, source: sources.cancel, task: Int32(oldest)), &node)
        case .push:
            handle(.init(time: node.time, kind: .payload, route: item, envelope: envelope,
                         intent: script.envelopeIntents[Int(envelope)], source: sources.push), &node)
        }
    }

    private func handle(_ input: LifecycleScript.Input, _ node: inout _ActionOrderingNode) {
        node.run.handle(input, index: 0, script)
    }

    private func runningCheckouts(_ run: _LifecycleRun<PublishedLiteralWindow, UnboundedSet>) -> [Int] {
        run.tasks.indices.filter { run.tasks[$0].kind == .checkout && run.tasks[$0].state == .running }
    }

    private mutating func judge(_ node: _ActionOrderingNode) {
        var settled = node
        while let task = settled.run.tasks.indices.first(where: { settled.run.tasks[$0].state == .running }) {
            settled.time += 1_000
            handle(.init(time: settled.time, kind: .taskEnd, source: sources.end, task: Int32(task)), &settled)
        }
        let run = settled.run
        let pushed = run.pushLog ?? []
        func shown(_ route: UInt32) -> Bool { pushed.contains { $0.route == route } }
        let duplicateReceipt = pushed.contains { entry in
            entry.route >= run.receiptBase && settled.duplicateTasks & 1 << UInt64(entry.route - run.receiptBase) != 0
        }
        let lostReceipt = run.tasks.indices.contains { task in
            run.tasks[task].kind == .checkout && settled.duplicateTasks & 1 << UInt64(task) == 0
                && !run.tasks[task].cancelRequested && !shown(run.tasks[task].route)
        }
        let duplicate = run.counts.duplicateScreens > 0 || duplicateReceipt
        let lost = lostReceipt || !shown(item)
        outcome.orderings += 1
        if duplicate { outcome.duplicates += 1 }
        if lost { outcome.lost += 1 }
        if outcome.counterexample == nil, duplicate || lost {
            outcome.counterexample = (steps, duplicate ? .duplicateScreens : .lostNavigations)
        }
    }
}
