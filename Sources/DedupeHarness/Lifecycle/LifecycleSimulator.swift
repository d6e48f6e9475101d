import DedupeWorkloads
import PushDedupe

/// A discrete-event simulation of both articles' lifecycles: the push router (paths, host, early
/// returns, detail fetch, `inFlightTask`) and the NavigationStack (a path the user goes back
/// through, button taps, an async checkout, one or two path owners), under one
/// ``LifecyclePolicy``. See `Guides/Policies.md` for the model and every count.
///
/// Generic over layer 1 (`W`) and layer 2 (`C`): no existential and no closure per input, and
/// every buffer is sized from the script before the run, so the loop allocates nothing per
/// input. Time is simulated and all randomness comes from `SplitMix64` streams seeded from
/// `seed`: a fetch's latency and outcome are keyed by the input that started it, so every
/// variant sees the same network on one script.
///
/// ```swift
/// var simulator = try LifecycleSimulator(
///     window: SeedLiteralWindow(configuration: .init()), consumed: UnboundedSet(configuration: .init()),
///     policy: PolicyVariant.keepInFlight.policy, configuration: LifecycleConfiguration(), seed: 42)
/// let counts = simulator.run(script)
/// ```
public struct LifecycleSimulator<W: FingerprintWindow, C: ConsumedSet> {
    public let policy: LifecyclePolicy
    public let configuration: LifecycleConfiguration
    public let seed: UInt64
    private var window: W
    private var consumed: C

    /// Builds a simulator around fresh strategies.
    ///
    /// - Throws: ``LifecycleConfigurationError`` for a bad `configuration`.
    public init(
        window: W, consumed: C, policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64
    ) throws(LifecycleConfigurationError) {
        try configuration.validate()
        self.window = window
        self.consumed = consumed
        self.policy = policy
        self.configuration = configuration
        self.seed = seed
    }

    /// Runs `script` to the end (every task completes, fails or is cancelled) and counts.
    /// Run a fresh simulator per script: the strategies keep their state.
    ///
    /// - Complexity: O(*n* log *n*) in the inputs (the completion queue); with two path owners,
    ///   an owner's `path.last` scan is O(depth).
    public mutating func run(_ script: LifecycleScript) -> LifecycleCounts {
        var state = _LifecycleRun(script: script, policy: policy, configuration: configuration, seed: seed)
        state.run(script, window: &window, consumed: &consumed)
        return state.counts
    }

    /// Runs `script` like ``run(_:)`` and also returns every push and the final path, for
    /// invariant checks.
    func runRecording(_ script: LifecycleScript) -> (counts: LifecycleCounts, pushes: [_DwellingPath.Entry], path: [_DwellingPath.Entry]) {
        var copy = self
        var state = _LifecycleRun(script: script, policy: policy, configuration: configuration, seed: seed)
        state.pushLog = []
        state.pushLog?.reserveCapacity(2 * script.inputs.count + 16)
        state.run(script, window: &copy.window, consumed: &copy.consumed)
        return (state.counts, state.pushLog ?? [], state.path.screens)
    }
}

/// The mutable state of one simulated run.
struct _LifecycleRun {
    enum TaskKind: UInt8 { case detailFetch, checkout }
    enum TaskState: UInt8 { case running, completed, failed, cancelled }

    let policy: LifecyclePolicy
    let seed: UInt64
    let fetchMedian: Double
    let checkoutMedian: Double
    let latencySigma: Double
    let failureRate: Double
    let dwellMedian: Double
    let dwellSigma: Double

    var counts = LifecycleCounts()
    var path = _DwellingPath()
    var completions: _CompletionQueue
    var dwellRandom: SplitMix64
    var pushLog: [_DwellingPath.Entry]?

    // Router state.
    var hostAttached: Bool
    var latestPending: Int32 = -1
    var inFlightTask: Int32 = -1
    var created: [Bool]
    var handlerRuns: [UInt8]
    // The async button's `isCheckingOut`.
    var checkingOut = false

    // Tasks, by start order.
    var taskKind: [TaskKind] = []
    var taskIntent: [Int32] = []
    var taskRoute: [UInt32] = []
    var taskEnvelope: [Int32] = []
    var taskState: [TaskState] = []
    var taskCancelRequested: [Bool] = []
    var taskWillFail: [Bool] = []

    // Intents.
    var intentStarted: [Bool]
    var intentServed: [Bool]
    var intentScreen: [UInt32]
    var intentSuperseded: [Bool]
    var intentLeft: [Bool]
    var intentFetchFailed: [Bool]
    var intentRunningTasks: [Int32]
    var latestIntent: Int32 = -1
    /// Receipt routes are numbered after the script's routes, one per checkout task.
    let receiptBase: UInt32

    init(script: LifecycleScript, policy: LifecyclePolicy, configuration: LifecycleConfiguration, seed: UInt64) {
        self.policy = policy
        self.seed = seed
        fetchMedian = configuration.fetchMedianMilliseconds
        checkoutMedian = configuration.checkoutMedianMilliseconds
        latencySigma = configuration.latencySigma
        failureRate = configuration.fetchFailureRate
        dwellMedian = configuration.dwellMedianMilliseconds
        dwellSigma = configuration.dwellSigma
        let inputs = script.inputs.count
        completions = _CompletionQueue(capacity: inputs + 1)
        dwellRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x6477_656c_6c00_0000))
        hostAttached = script.hostAttachedAtStart
        created = [Bool](repeating: false, count: script.envelopes.count)
        handlerRuns = [UInt8](repeating: 0, count: script.envelopes.count)
        taskKind.reserveCapacity(inputs)
        taskIntent.reserveCapacity(inputs)
        taskRoute.reserveCapacity(inputs)
        taskEnvelope.reserveCapacity(inputs)
        taskState.reserveCapacity(inputs)
        taskCancelRequested.reserveCapacity(inputs)
        taskWillFail.reserveCapacity(inputs)
        let intents = script.intentCount
        intentStarted = [Bool](repeating: false, count: intents)
        intentServed = [Bool](repeating: false, count: intents)
        intentScreen = [UInt32](repeating: .max, count: intents)
        intentSuperseded = [Bool](repeating: false, count: intents)
        intentLeft = [Bool](repeating: false, count: intents)
        intentFetchFailed = [Bool](repeating: false, count: intents)
        intentRunningTasks = [Int32](repeating: 0, count: intents)
        receiptBase = UInt32(script.routes.count)
        counts.intents = intents
    }

    mutating func run<W: FingerprintWindow, C: ConsumedSet>(_ script: LifecycleScript, window: inout W, consumed: inout C) {
        var next = 0
        let inputs = script.inputs
        while next < inputs.count || !completions.isEmpty {
            let inputTime = next < inputs.count ? inputs[next].time : .max
            let completionTime = completions.nextTime
            // At equal times: the user's pop, then a completion, then the input.
            if path.popTime != .max && path.popTime <= completionTime && path.popTime <= inputTime {
                pop()
            } else if completionTime <= inputTime {
                complete(completions.removeFirst(), at: completionTime, script, consumed: &consumed)
            } else {
                handle(inputs[next], index: next, script, window: &window, consumed: &consumed)
                next += 1
            }
        }
        for intent in 0..<script.intentCount where isRoutable(intent, script) {
            guard intentStarted[intent], !intentServed[intent], !intentSuperseded[intent] else { continue }
            if intentFetchFailed[intent] { counts.fetchFailures += 1 } else { counts.lostNavigations += 1 }
        }
    }

    /// Whether `intent` is still on its way to the screen: a task of its own runs, or its
    /// envelope waits, unhandled, as the latest pending route. A newer intent supersedes only
    /// such an intent; one that already failed or was dropped stays lost.
    private func isUnderWay(_ intent: Int32, _ script: LifecycleScript) -> Bool {
        if intentRunningTasks[Int(intent)] > 0 { return true }
        return latestPending >= 0 && script.envelopeIntents[Int(latestPending)] == intent && handlerRuns[Int(latestPending)] == 0
    }

    // MARK: Inputs

    private mutating func handle<W: FingerprintWindow, C: ConsumedSet>(
        _ input: LifecycleScript.Input, index: Int, _ script: LifecycleScript, window: inout W, consumed: inout C
    ) {
        let now = input.time
        if input.intent >= 0 { start(intent: input.intent, script) }
        switch input.kind {
        case .payload:
            guard window.admit(script.fingerprints[Int(input.route)], at: Timestamp(nanoseconds: now)) else {
                counts.suppressedByWindow += 1
                return
            }
            created[Int(input.envelope)] = true
            latestPending = input.envelope
            // The subject delivers to the router only while a host is attached; otherwise the
            // envelope waits as the latest pending route.
            if hostAttached { route(input.envelope, trigger: index, now, script, consumed: &consumed) }
        case .emit:
            // An emit of an envelope whose payload layer 1 dropped never happens in the app.
            guard created[Int(input.envelope)] else { return }
            route(input.envelope, trigger: index, now, script, consumed: &consumed)
        case .hostAttach:
            hostAttached = true
            if latestPending >= 0 { route(latestPending, trigger: index, now, script, consumed: &consumed) }
        case .hostDetach:
            hostAttached = false
        case .tap:
            guardedPush(input.route, owner: 0, intent: input.intent, now)
        case .childAppend:
            // With one owner the child appends to the same path (a binding); otherwise to its own.
            guardedPush(input.route, owner: policy.singlePathOwner ? 0 : 1, intent: input.intent, now)
        case .checkoutTap:
            // Once the receipt is pushed it covers the button: there is nothing left to tap.
            if intentServed[Int(input.intent)] { return }
            if policy.loadingGuard && checkingOut {
                counts.ignoredTaps += 1
                return
            }
            checkingOut = true
            let task = Int32(taskKind.count)
            startTask(.checkout, intent: input.intent, route: receiptBase + UInt32(task), envelope: -1, trigger: index, now)
        }
    }

    /// The article's route handler (`consume(envelope:)`).
    private mutating func route<C: ConsumedSet>(
        _ envelope: Int32, trigger: Int, _ now: Int64, _ script: LifecycleScript, consumed: inout C
    ) {
        let slot = Int(envelope)
        let id = script.envelopes[slot]
        let time = Timestamp(nanoseconds: now)
        guard !consumed.contains(id) else {
            counts.suppressedByConsumedSet += 1
            return
        }
        if handlerRuns[slot] < .max { handlerRuns[slot] += 1 }
        if handlerRuns[slot] == 2 { counts.reprocessedEnvelopes += 1 }
        let routeIndex = script.envelopeRoutes[slot]
        guard script.tabs[Int(routeIndex)] == .enabled, hostAttached else {
            counts.earlyReturns += 1
            if policy.consumeOnEveryReturn { _ = consumed.consume(id, at: time) }
            return
        }
        if policy.consumeBeforeAsyncWork { _ = consumed.consume(id, at: time) }
        if policy.cancelInFlightTask, inFlightTask >= 0, taskState[Int(inFlightTask)] == .running {
            taskCancelRequested[Int(inFlightTask)] = true
        }
        inFlightTask = Int32(taskKind.count)
        startTask(.detailFetch, intent: script.envelopeIntents[slot], route: routeIndex, envelope: envelope, trigger: trigger, now)
    }

    private mutating func startTask(
        _ kind: TaskKind, intent: Int32, route: UInt32, envelope: Int32, trigger: Int, _ now: Int64
    ) {
        // Keyed by the input that started the task, so every policy sees the same network.
        var random = SplitMix64(seed: DeterministicHashing.mix64(seed ^ DeterministicHashing.mix64(UInt64(trigger) &+ 0x7461_736b)))
        let median = kind == .detailFetch ? fetchMedian : checkoutMedian
        let latency = random.logNormal(median: median, sigma: latencySigma, clampedTo: 0 ... 600_000)
        let fails = random.bernoulli(failureRate)
        let task = Int32(taskKind.count)
        taskKind.append(kind)
        taskIntent.append(intent)
        taskRoute.append(route)
        taskEnvelope.append(envelope)
        taskState.append(.running)
        taskCancelRequested.append(false)
        taskWillFail.append(fails)
        counts.tasksStarted += 1
        if intent >= 0 { intentRunningTasks[Int(intent)] += 1 }
        completions.insert(task: task, at: now &+ LifecycleScriptBuilder.nanoseconds(latency))
    }

    private mutating func complete<C: ConsumedSet>(_ task: Int32, at now: Int64, _ script: LifecycleScript, consumed: inout C) {
        let index = Int(task)
        let intent = taskIntent[index]
        if taskKind[index] == .checkout { checkingOut = false }
        if inFlightTask == task { inFlightTask = -1 }
        if intent >= 0 { intentRunningTasks[Int(intent)] -= 1 }
        if taskCancelRequested[index] {
            taskState[index] = .cancelled
            counts.tasksCancelled += 1
            return
        }
        if taskWillFail[index] {
            taskState[index] = .failed
            counts.tasksFailed += 1
            if intent >= 0 { intentFetchFailed[Int(intent)] = true }
            return
        }
        taskState[index] = .completed
        counts.tasksCompleted += 1
        switch taskKind[index] {
        case .detailFetch:
            if !policy.consumeBeforeAsyncWork {
                _ = consumed.consume(script.envelopes[Int(taskEnvelope[index])], at: Timestamp(nanoseconds: now))
            }
            // `host.pushDetail`: a UIKit push, a command with no `path.last` check.
            push(taskRoute[index], owner: 0, intent: intent, now)
        case .checkout:
            guardedPush(taskRoute[index], owner: 0, intent: intent, now)
        }
    }

    // MARK: The path

    /// `push(_:)` of the NavigationStack article: the guard, then the append.
    private mutating func guardedPush(_ route: UInt32, owner: UInt8, intent: Int32, _ now: Int64) {
        if policy.lastRouteGuard && path.lastRoute(ownedBy: owner) == route {
            counts.suppressedByGuard += 1
            return
        }
        push(route, owner: owner, intent: intent, now)
    }

    private mutating func push(_ route: UInt32, owner: UInt8, intent: Int32, _ now: Int64) {
        counts.pushes += 1
        if route == path.top { counts.duplicateScreens += 1 }
        if intent >= 0 {
            let slot = Int(intent)
            if intentLeft[slot] { counts.repushedAfterLeave += 1 }
            if intent != latestIntent || (intentServed[slot] && route != intentScreen[slot]) {
                counts.wrongScreens += 1
            } else if !intentServed[slot] {
                intentServed[slot] = true
                intentScreen[slot] = route
            }
        }
        path.push(.init(route: route, owner: owner, intent: intent), at: now, dwell: dwell())
        pushLog?.append(.init(route: route, owner: owner, intent: intent))
    }

    private mutating func pop() {
        guard let entry = path.popIfDue(at: path.popTime) else { return }
        if entry.intent >= 0 { intentLeft[Int(entry.intent)] = true }
        path.dwellOnRevealed(dwell())
    }

    private mutating func dwell() -> Int64 {
        LifecycleScriptBuilder.nanoseconds(dwellRandom.logNormal(
            median: dwellMedian, sigma: dwellSigma, clampedTo: 1 ... 86_400_000))
    }

    // MARK: Intents

    private func isRoutable(_ intent: Int, _ script: LifecycleScript) -> Bool {
        let route = script.intentRoutes[intent]
        return route == .max || script.tabs[Int(route)] == .enabled
    }

    /// The first input of an intent: it becomes the latest, superseding an unserved older one,
    /// and is served at once if its screen is already on top.
    private mutating func start(intent: Int32, _ script: LifecycleScript) {
        let slot = Int(intent)
        guard !intentStarted[slot] else { return }
        intentStarted[slot] = true
        guard isRoutable(slot, script) else { return }
        if latestIntent >= 0 && !intentServed[Int(latestIntent)] && isUnderWay(latestIntent, script) {
            intentSuperseded[Int(latestIntent)] = true
        }
        latestIntent = intent
        let wanted = script.intentRoutes[slot]
        if wanted != .max && wanted == path.top {
            intentServed[slot] = true
            intentScreen[slot] = wanted
        }
    }
}
