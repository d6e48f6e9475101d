import DedupeWorkloads
import PushDedupe

/// The latest pending route: the envelope the route subject replays at host attach, and the
/// intent of the payload that made it pending.
struct _PendingRoute: Equatable {
    var envelope: Int32
    var intent: Int32
    static let none = _PendingRoute(envelope: -1, intent: -1)
}

/// The mutable state of one simulated run, and every input's effect on it. A value: `verify`
/// copies it at each branch of its search. See `Guides/Policies.md` for the model.
struct _LifecycleRun<W: FingerprintWindow, C: ConsumedSet> {
    /// The checkout button's action under the router's loading guard.
    static var checkoutAction: ActionKey { "checkout" }
    enum TaskKind: UInt8 { case detailFetch, checkout }
    enum TaskState: UInt8 { case running, completed, failed, cancelled, killed }
    /// What the latest handler run of an envelope did.
    enum HandlerRun: UInt8 { case none, earlyReturn, fetch }
    /// Where the handler marked an envelope consumed.
    enum ConsumeOrigin: UInt8 { case none, earlyReturnNoHost, earlyReturnUnroutable, beforeFetch, afterPush }

    let policy: LifecyclePolicy
    let seed: UInt64
    let persistence: Persistence
    let scheduling: LifecycleScript.Scheduling
    let fetchMedian: Double
    let checkoutMedian: Double
    let latencySigma: Double
    let failureRate: Double
    let dwellMedian: Double
    let dwellSigma: Double
    let coldLaunchMedian: Double
    /// The `cold_launch` label of the host attach a drawn run adds after a relaunch.
    let coldLaunchSource: UInt16
    let relaunchSource: UInt16

    // Layers, and what a kill leaves of them.
    var window: W
    let freshWindow: W
    var consumed: C
    let freshConsumed: C
    /// The consumed set and pending route as of the last `background` (`on-background`).
    var savedConsumed: C
    /// What the store holds under reserve-then-commit: the consumed set without the reservations
    /// not yet committed, which a kill loses. Unused otherwise (the store is `consumed`).
    var committed: C
    var savedPending = _PendingRoute.none

    var counts = LifecycleCounts()
    var causes = _CauseTally()
    var path = _DwellingPath()
    var completions: _CompletionQueue
    var dwellRandom: SplitMix64
    var pushLog: [_DwellingPath.Entry]?
    /// The task whose push is the top screen, or -1 (a tap's, or unknown since a pop).
    var topPushTask: Int32 = -1
    /// The first `taskEnd` or `taskCancel` input that named a task not running, or -1.
    var firstInvalidTaskEnd = -1

    // Router state.
    /// The shipped router's core for the path's owner: it decides every push onto the path (a
    /// detail fetch's, a button's, a receipt's, a child's with one owner), the cancel of the
    /// fetch a newer route supersedes, and the checkout's loading guard. `path` records the same
    /// screens for the user, who dwells on them and goes back (`Guides/Router.md` maps each
    /// switch to the core's configuration).
    var router: _RouterDriver
    /// With two path owners, the child's own core: its guard sees only the child's screens.
    /// `nil` with one owner, so that the verifier's copy of a run retains no second core.
    var childRouter: _RouterDriver?
    /// The task of each work token the router issued since the last relaunch.
    var taskOfWork: [Int32] = []
    var hostAttached: Bool
    var pending = _PendingRoute.none
    /// The latest detail fetch started, or -1: the one a newer route would supersede.
    var inFlightTask: Int32 = -1
    /// When the host attaches after the latest relaunch (drawn scheduling), or `Int64.max`.
    var coldLaunchAttachTime: Int64 = .max
    /// One row per envelope of the script.
    var envelopes: [EnvelopeRow]
    /// Running tasks not asked to cancel, by kind.
    var liveFetches = 0
    var liveCheckouts = 0
    /// Tasks before this index have all ended.
    var oldestRunningTask = 0
    /// One row per task, by start order.
    var tasks: [TaskRow] = []
    /// One row per intent of the script.
    var intents: [IntentRow]
    var latestIntent: Int32 = -1
    /// The screen each intent wants (`UInt32.max` for a checkout), from the script.
    let wanted: [UInt32]
    /// Receipt routes are numbered after the script's routes, one per checkout task.
    let receiptBase: UInt32

    init(
        script: LifecycleScript, window: W, consumed: C, policy: LifecyclePolicy, configuration: LifecycleConfiguration,
        seed: UInt64
    ) {
        self.policy = policy
        self.seed = seed
        router = _RouterDriver(configuration: policy.routerConfiguration)
        childRouter = policy.singlePathOwner ? nil : _RouterDriver(configuration: policy.routerConfiguration)
        persistence = configuration.persistence
        scheduling = script.scheduling
        fetchMedian = configuration.fetchMedianMilliseconds
        checkoutMedian = configuration.checkoutMedianMilliseconds
        latencySigma = configuration.latencySigma
        failureRate = configuration.fetchFailureRate
        dwellMedian = configuration.dwellMedianMilliseconds
        dwellSigma = configuration.dwellSigma
        coldLaunchMedian = configuration.coldLaunchHostMedianMilliseconds
        coldLaunchSource = UInt16(script.sources.firstIndex(of: LifecycleScriptBuilder.coldLaunchSource) ?? 0)
        relaunchSource = UInt16(script.sources.firstIndex(of: LifecycleScriptBuilder.defaultSource(of: .relaunch)) ?? 0)
        self.window = window
        freshWindow = window
        self.consumed = consumed
        freshConsumed = consumed
        savedConsumed = consumed
        committed = consumed
        let inputs = script.inputs.count
        completions = _CompletionQueue(capacity: script.scheduling == .drawn ? inputs + 1 : 0)
        dwellRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x6477_656c_6c00_0000))
        hostAttached = script.hostAttachedAtStart
        let envelopes = script.envelopes.count
        self.envelopes = [EnvelopeRow](repeating: EnvelopeRow(), count: envelopes)
        tasks.reserveCapacity(inputs)
        taskOfWork.reserveCapacity(inputs)
        let intents = script.intentCount
        self.intents = [IntentRow](repeating: IntentRow(), count: intents)
        wanted = script.intentRoutes
        receiptBase = UInt32(script.routes.count)
        counts.intents = intents
    }

    /// Runs every input, and (drawn scheduling) every completion, pop and cold-launch attach
    /// they cause, in time order; then judges the intents.
    mutating func run(_ script: LifecycleScript) {
        var next = 0
        let inputs = script.inputs
        while next < inputs.count || !completions.isEmpty || coldLaunchAttachTime != .max {
            let inputTime = next < inputs.count ? inputs[next].time : .max
            let completionTime = completions.nextTime
            // At equal times: the user's pop, then a completion, then the cold launch's host
            // attach, then the input.
            if path.popTime != .max && path.popTime <= completionTime && path.popTime <= coldLaunchAttachTime
                && path.popTime <= inputTime {
                pop(at: path.popTime)
            } else if completionTime != .max && completionTime <= coldLaunchAttachTime && completionTime <= inputTime {
                let task = completions.removeFirst()
                end(task, failing: tasks[Int(task)].willFail, at: completionTime, script)
            } else if coldLaunchAttachTime != .max && coldLaunchAttachTime <= inputTime {
                let time = coldLaunchAttachTime
                coldLaunchAttachTime = .max
                attachHost(source: coldLaunchSource, trigger: UInt64(next) | 1 << 40, at: time, script)
            } else {
                handle(inputs[next], index: next, script)
                next += 1
            }
        }
        finish(script)
    }

    /// Judges every intent once no input is left: lost, failed, or fine. Tasks still running
    /// (scripted scheduling only) are counted unfinished; their intents are still under way.
    mutating func finish(_ script: LifecycleScript) {
        for task in oldestRunningTask..<tasks.count where tasks[task].state == .running {
            counts.tasksUnfinished += 1
        }
        for intent in 0..<script.intentCount where isRoutable(intent, script) {
            guard intents[intent].started, !intents[intent].served, !intents[intent].superseded, intents[intent].runningTasks == 0
            else { continue }
            if intents[intent].fetchFailed {
                counts.fetchFailures += 1
            } else {
                counts.lostNavigations += 1
                causes.book(.lostNavigations, source: intents[intent].setbackSource, rule: intents[intent].setbackRule ?? .unexplained)
            }
        }
    }

    // MARK: Inputs

    mutating func handle(_ input: LifecycleScript.Input, index: Int, _ script: LifecycleScript) {
        let now = input.time
        if input.intent >= 0 { start(intent: input.intent, viaRouter: input.kind == .payload || input.kind == .emit, script) }
        switch input.kind {
        case .payload:
            guard window.admit(script.fingerprints[Int(input.route)], at: Timestamp(nanoseconds: now)) else {
                counts.suppressedByWindow += 1
                // Only a delivery that is the intent's first to reach the router can lose it.
                if input.intent >= 0 && !intents[Int(input.intent)].routed {
                    setback(input.intent, .windowFalseDrop, source: input.source)
                }
                return
            }
            if input.intent >= 0 { intents[Int(input.intent)].routed = true }
            envelopes[Int(input.envelope)].created = true
            pending = _PendingRoute(envelope: input.envelope, intent: input.intent)
            // The subject delivers to the router only while a host is attached; otherwise the
            // envelope waits as the latest pending route.
            if hostAttached {
                route(input.envelope, intent: input.intent, source: input.source, trigger: UInt64(index), now, script)
            }
        case .emit:
            // An emit of an envelope whose payload layer 1 dropped never happens in the app.
            guard envelopes[Int(input.envelope)].created else { return }
            if input.intent >= 0 { intents[Int(input.intent)].routed = true }
            route(input.envelope, intent: input.intent, source: input.source, trigger: UInt64(index), now, script)
        case .hostAttach:
            attachHost(source: input.source, trigger: UInt64(index), at: now, script)
        case .hostDetach:
            hostAttached = false
        case .tap:
            guardedPush(input.route, owner: 0, intent: input.intent, source: input.source, task: -1, now)
        case .childAppend:
            // With one owner the child appends to the same path (a binding); otherwise to its own.
            guardedPush(input.route, owner: policy.singlePathOwner ? 0 : 1, intent: input.intent, source: input.source, task: -1, now)
        case .checkoutTap:
            checkoutTap(input, index: index)
        case .background:
            if persistence == .onBackground {
                savedConsumed = policy.reserveThenCommit ? committed : consumed
                savedPending = pending
            }
        case .relaunch:
            relaunch(at: now, trigger: UInt64(index))
        case .taskEnd:
            let task = Int(input.task)
            guard scheduling == .scripted, task >= 0, task < tasks.count, tasks[task].state == .running else {
                if firstInvalidTaskEnd < 0 { firstInvalidTaskEnd = index }
                return
            }
            end(input.task, failing: !input.succeeds, at: now, script)
        case .taskCancel:
            let task = Int(input.task)
            guard scheduling == .scripted, task >= 0, task < tasks.count, tasks[task].state == .running,
                  !tasks[task].cancelRequested else {
                if firstInvalidTaskEnd < 0 { firstInvalidTaskEnd = index }
                return
            }
            requestCancel(input.task)
        case .back:
            if let entry = path.popTop() {
                leave(entry)
            }
        }
    }

    private mutating func attachHost(source: UInt16, trigger: UInt64, at now: Int64, _ script: LifecycleScript) {
        hostAttached = true
        if pending.envelope >= 0 {
            route(pending.envelope, intent: pending.intent, source: source, trigger: trigger, now, script)
        }
    }

    private mutating func checkoutTap(_ input: LifecycleScript.Input, index: Int) {
        let intent = Int(input.intent)
        // Once the receipt is pushed it covers the button: there is nothing left to tap.
        if intents[intent].served { return }
        router.handle(.actionTriggered(Self.checkoutAction))
        guard case .startAction = router.effects.first else {
            counts.ignoredTaps += 1
            return
        }
        let overlap: FailureRule? = liveCheckouts > 0 ? (policy.loadingGuard ? .unexplained : .noLoadingGuard) : nil
        if let overlap {
            counts.overlappingTasks += 1
            causes.book(.overlappingTasks, source: input.source, rule: overlap)
        }
        let task = Int32(tasks.count)
        startTask(.checkout, intent: input.intent, route: receiptBase + UInt32(task), envelope: -1, source: input.source,
                  rerun: overlap, trigger: UInt64(index), input.time)
    }

    /// The article's route handler (`consume(envelope:)`).
    private mutating func route(
        _ envelope: Int32, intent inputIntent: Int32, source: UInt16, trigger: UInt64, _ now: Int64, _ script: LifecycleScript
    ) {
        let slot = Int(envelope)
        let intent = inputIntent >= 0 ? inputIntent : script.envelopeIntents[slot]
        let id = script.envelopes[slot]
        guard !consumed.contains(id) else {
            counts.suppressedByConsumedSet += 1
            if intent >= 0 { suppressed(intent, envelope: slot, source: source) }
            return
        }
        let rerun: FailureRule? = envelopes[slot].handlerRuns > 0 ? reprocessingRule(slot) : nil
        if envelopes[slot].handlerRuns < .max { envelopes[slot].handlerRuns += 1 }
        if envelopes[slot].handlerRuns == 2 {
            counts.reprocessedEnvelopes += 1
            causes.book(.reprocessedEnvelopes, source: source, rule: rerun ?? .unexplained)
        }
        let routeIndex = script.envelopeRoutes[slot]
        let routable = script.tabs[Int(routeIndex)] == .enabled
        guard routable, hostAttached else {
            counts.earlyReturns += 1
            envelopes[slot].lastRun = .earlyReturn
            if policy.consumeOnEveryReturn {
                markConsumed(slot, id, intent: intent, origin: routable ? .earlyReturnNoHost : .earlyReturnUnroutable, now)
                if routable && intent >= 0 { setback(intent, .consumedOnNoHost, source: source) }
            }
            return
        }
        if policy.consumeBeforeAsyncWork { markConsumed(slot, id, intent: intent, origin: .beforeFetch, now) }
        envelopes[slot].lastRun = .fetch
        router.handle(.routeRequested(routeIndex, envelope: id, decision: .navigated))
        commitRouterEffects(now)
        var cancelledInFlight = false
        for effect in router.effects {
            switch effect {
            case let .cancelWork(token):
                let superseded = taskOfWork[Int(token.rawValue)]
                requestCancel(superseded)
                cancelledInFlight = true
                // A second handling of an older envelope cancelled a newer intent's fetch.
                let cancelled = tasks[Int(superseded)].intent
                if let rerun, cancelled >= 0, cancelled != intent, !intents[Int(cancelled)].served {
                    setback(cancelled, rerun, source: source)
                }
            case .ignore(.duplicateOnTop):
                // The router's guard at the request: the screen is on top, so no fetch starts.
                suppressedByRouterGuard(routeIndex, intent: intent)
                return
            default:
                break
            }
        }
        if !cancelledInFlight, inFlightTask >= 0, tasks[Int(inFlightTask)].state == .running,
           !tasks[Int(inFlightTask)].cancelRequested {
            tasks[Int(inFlightTask)].outlived = true
        }
        if liveFetches > 0 {
            counts.overlappingTasks += 1
            causes.book(.overlappingTasks, source: source, rule: policy.cancelInFlightTask ? .unexplained : .keepInFlight)
        }
        inFlightTask = Int32(tasks.count)
        taskOfWork.append(inFlightTask)
        startTask(.detailFetch, intent: intent, route: routeIndex, envelope: envelope, source: source, rerun: rerun,
                  trigger: trigger, now)
    }

    private mutating func markConsumed(_ slot: Int, _ id: EnvelopeID, intent: Int32, origin: ConsumeOrigin, _ now: Int64) {
        _ = consumed.consume(id, at: Timestamp(nanoseconds: now))
        // Before the fetch it is a reservation, which the core's effects commit; any other
        // consume is written at once.
        if policy.reserveThenCommit && origin != .beforeFetch { _ = committed.consume(id, at: Timestamp(nanoseconds: now)) }
        envelopes[slot].consumeOrigin = origin
        envelopes[slot].consumedForIntent = intent
        envelopes[slot].consumedAtRelaunch = Int32(counts.relaunches)
    }

    /// Writes to the store the consumes the core just committed (reserve-then-commit only: at
    /// receipt the consumed set is the store).
    private mutating func commitRouterEffects(_ now: Int64) {
        guard policy.reserveThenCommit else { return }
        for case let .commitConsume(id, _) in router.effects { _ = committed.consume(id, at: Timestamp(nanoseconds: now)) }
    }

    private mutating func requestCancel(_ task: Int32) {
        tasks[Int(task)].cancelRequested = true
        if tasks[Int(task)].kind == .detailFetch { liveFetches -= 1 } else { liveCheckouts -= 1 }
    }

    private mutating func startTask(
        _ kind: TaskKind, intent: Int32, route: UInt32, envelope: Int32, source: UInt16, rerun: FailureRule?,
        trigger: UInt64, _ now: Int64
    ) {
        let task = Int32(tasks.count)
        var fails = false
        if scheduling == .drawn {
            // Keyed by the input that started the task, so every policy sees the same network.
            var random = SplitMix64(seed: DeterministicHashing.mix64(seed ^ DeterministicHashing.mix64(trigger &+ 0x7461_736b)))
            let median = kind == .detailFetch ? fetchMedian : checkoutMedian
            let latency = random.logNormal(median: median, sigma: latencySigma, clampedTo: 0 ... 600_000)
            fails = random.bernoulli(failureRate)
            completions.insert(task: task, at: now &+ LifecycleScriptBuilder.nanoseconds(latency))
        }
        tasks.append(TaskRow(
            kind: kind, intent: intent, route: route, envelope: envelope,
            work: kind == .detailFetch ? Int32(taskOfWork.count - 1) : -1, willFail: fails, source: source, startRule: rerun))
        counts.tasksStarted += 1
        if kind == .detailFetch { liveFetches += 1 } else { liveCheckouts += 1 }
        if intent >= 0 { intents[Int(intent)].runningTasks += 1 }
    }

    /// A task's `await` returns: it checks `Task.isCancelled`, then fails or pushes.
    private mutating func end(_ task: Int32, failing: Bool, at now: Int64, _ script: LifecycleScript) {
        let index = Int(task)
        // A killed task's drawn completion never comes back.
        guard tasks[index].state == .running else { return }
        let intent = tasks[index].intent
        if tasks[index].kind == .checkout { router.handle(.actionFinished(Self.checkoutAction)) }
        if inFlightTask == task { inFlightTask = -1 }
        if intent >= 0 { intents[Int(intent)].runningTasks -= 1 }
        if !tasks[index].cancelRequested {
            if tasks[index].kind == .detailFetch { liveFetches -= 1 } else { liveCheckouts -= 1 }
        }
        defer { advanceOldestRunningTask() }
        let work = tasks[index].work >= 0 ? WorkToken(UInt64(tasks[index].work)) : nil
        if tasks[index].cancelRequested {
            tasks[index].state = .cancelled
            counts.tasksCancelled += 1
            // The core dropped the work at its cancel: this report is the expected echo.
            if let work {
                router.handle(.workCancelled(work))
                commitRouterEffects(now)
            }
            return
        }
        if failing {
            if let work {
                router.handle(.workFailed(work))
                commitRouterEffects(now)
            }
            tasks[index].state = .failed
            counts.tasksFailed += 1
            if intent >= 0 { intents[Int(intent)].fetchFailed = true }
            return
        }
        tasks[index].state = .completed
        counts.tasksCompleted += 1
        switch tasks[index].kind {
        case .detailFetch:
            if let work { routerPush(task, work, now) }
            // The article's first code marks the envelope after `host.pushDetail`.
            if !policy.consumeBeforeAsyncWork {
                let slot = Int(tasks[index].envelope)
                markConsumed(slot, script.envelopes[slot], intent: intent, origin: .afterPush, now)
            }
        case .checkout:
            guardedPush(tasks[index].route, owner: 0, intent: intent, source: tasks[index].source, task: task, now)
        }
    }

    private mutating func advanceOldestRunningTask() {
        while oldestRunningTask < tasks.count && tasks[oldestRunningTask].state != .running { oldestRunningTask += 1 }
    }

    /// The process dies and starts again: tasks, path, window, subject and host are gone; the
    /// consumed set and the pending route are what the persistence kept.
    private mutating func relaunch(at now: Int64, trigger: UInt64) {
        counts.relaunches += 1
        for task in oldestRunningTask..<tasks.count where tasks[task].state == .running {
            tasks[task].state = .killed
            counts.tasksKilled += 1
            let intent = tasks[task].intent
            if intent >= 0 {
                intents[Int(intent)].runningTasks -= 1
                setback(intent, killRule(task), source: relaunchSource)
            }
        }
        oldestRunningTask = tasks.count
        liveFetches = 0
        liveCheckouts = 0
        // The pending route is what a cold launch would replay: lost with the store, or rolled
        // back to the last background save.
        if pending.intent >= 0, !intents[Int(pending.intent)].served, intents[Int(pending.intent)].runningTasks == 0 {
            switch persistence {
            case .memory: setback(pending.intent, .memoryPersistence, source: relaunchSource)
            case .onBackground where savedPending != pending:
                setback(pending.intent, .lostSinceBackground, source: relaunchSource)
            default: break
            }
        }
        // Moved out and back, so the closure does not reach into `self` while `path` is borrowed.
        var rows: [IntentRow] = []
        swap(&rows, &intents)
        path.removeAll { entry in if entry.intent >= 0 { rows[Int(entry.intent)].left = true } }
        swap(&rows, &intents)
        router.relaunch()
        childRouter?.relaunch()
        taskOfWork.removeAll(keepingCapacity: true)
        topPushTask = -1
        window = freshWindow
        switch persistence {
        case .memory:
            consumed = freshConsumed
            pending = .none
        case .afterEveryConsume:
            if policy.reserveThenCommit { consumed = committed }
        case .onBackground:
            consumed = savedConsumed
            pending = savedPending
        }
        // Only reserve-then-commit writes it: otherwise it stays the fresh set, so it holds no
        // second reference to `consumed`'s storage that would make the next consume copy it.
        if policy.reserveThenCommit { committed = consumed }
        hostAttached = false
        inFlightTask = -1
        if scheduling == .drawn {
            var random = SplitMix64(seed: DeterministicHashing.mix64(seed ^ DeterministicHashing.mix64(trigger &+ 0x636f_6c64)))
            let delay = random.logNormal(median: coldLaunchMedian, sigma: 0.5, clampedTo: 100 ... 5_000)
            coldLaunchAttachTime = now &+ LifecycleScriptBuilder.nanoseconds(delay)
        }
    }

    // MARK: The path

    /// The router's `host.pushDetail` once the fetch `work` returns: the core appends, or (with
    /// its guard on routed pushes, the seventh switch) finds the screen on top.
    private mutating func routerPush(_ task: Int32, _ work: WorkToken, _ now: Int64) {
        let route = tasks[Int(task)].route
        router.handle(.workCompleted(work))
        commitRouterEffects(now)
        guard router.appended else {
            suppressedByRouterGuard(route, intent: tasks[Int(task)].intent)
            return
        }
        push(route, owner: 0, intent: tasks[Int(task)].intent, source: tasks[Int(task)].source, task: task, guarded: false, now)
    }

    /// The router's guard kept `route` off the path: nothing is pushed; the newest intent is
    /// served if this is its screen.
    private mutating func suppressedByRouterGuard(_ route: UInt32, intent: Int32) {
        counts.suppressedByRouterGuard += 1
        let newest = Int(latestIntent)
        if latestIntent >= 0 && !intents[newest].served && wanted[newest] == route { serve(newest, route, ownPush: latestIntent == intent) }
    }

    /// `push(_:)` of the NavigationStack article, through the core of the path `owner` keeps: its
    /// guard, then the append.
    private mutating func guardedPush(_ route: UInt32, owner: UInt8, intent: Int32, source: UInt16, task: Int32, _ now: Int64) {
        let appended: Bool
        if owner == 0 {
            router.handle(.buttonPushed(route))
            appended = router.appended
        } else {
            childRouter?.handle(.buttonPushed(route))
            appended = childRouter?.appended ?? false
        }
        guard appended else {
            counts.suppressedByGuard += 1
            return
        }
        push(route, owner: owner, intent: intent, source: source, task: task, guarded: true, now)
    }

    private mutating func push(
        _ route: UInt32, owner: UInt8, intent: Int32, source: UInt16, task: Int32, guarded: Bool, _ now: Int64
    ) {
        counts.pushes += 1
        if route == path.top {
            counts.duplicateScreens += 1
            causes.book(.duplicateScreens, source: source, rule: duplicateRule(task: task, intent: intent, owner: owner, guarded: guarded))
        }
        if intent >= 0 {
            if intents[Int(intent)].left {
                counts.repushedAfterLeave += 1
                causes.book(.repushedAfterLeave, source: source, rule: task < 0 ? .tapAfterLeave : taskRule(task, intent: intent) ?? .unexplained)
            }
            judge(route, intent: intent, source: source, task: task)
        }
        let dwell = scheduling == .drawn ? self.dwell() : .max
        // A full path forgets its bottom screen; so does the core that owns it.
        if path.count == _DwellingPath.capacity, let bottom = path.bottomScreen {
            if bottom.owner == 0 { router.dropBottom() } else { childRouter?.dropBottom() }
        }
        path.push(.init(route: route, owner: owner, intent: intent), at: now, dwell: dwell)
        topPushTask = task
        pushLog?.append(.init(route: route, owner: owner, intent: intent))
    }

    /// Who a push of `route` for `intent` serves, or whether it is a wrong screen.
    private mutating func judge(_ route: UInt32, intent: Int32, source: UInt16, task: Int32) {
        let latest = latestIntent
        guard latest >= 0 else { return }
        let newest = Int(latest)
        // Whichever task shows the screen the newest intent wants, serves it.
        if !intents[newest].served, wanted[newest] != .max, wanted[newest] == route {
            serve(newest, route, ownPush: latest == intent)
            return
        }
        if intent == latest {
            if !intents[newest].served {
                serve(newest, route, ownPush: true)
            } else if route != intents[newest].screen {
                counts.wrongScreens += 1
                causes.book(.wrongScreens, source: source, rule: policy.loadingGuard ? (taskRule(task, intent: intent) ?? .unexplained) : .noLoadingGuard)
            }
            return
        }
        let shown = intents[newest].served ? intents[newest].screen : wanted[newest]
        guard route != shown else { return }
        counts.wrongScreens += 1
        causes.book(.wrongScreens, source: source, rule: staleRule(task: task, newest: newest))
    }

    private mutating func serve(_ intent: Int, _ route: UInt32, ownPush: Bool) {
        intents[intent].served = true
        intents[intent].screen = route
        if ownPush { intents[intent].servedByOwnPush = true }
    }

    private mutating func pop(at now: Int64) {
        guard let entry = path.popIfDue(at: now) else { return }
        leave(entry)
        path.dwellOnRevealed(dwell())
    }

    /// The user went back from `entry`'s screen: the view hands its owner's router the path
    /// without it.
    private mutating func leave(_ entry: _DwellingPath.Entry) {
        if entry.owner == 0 { router.dropTop() } else { childRouter?.dropTop() }
        topPushTask = -1
        if entry.intent >= 0 { intents[Int(entry.intent)].left = true }
    }

    private mutating func dwell() -> Int64 {
        LifecycleScriptBuilder.nanoseconds(dwellRandom.logNormal(
            median: dwellMedian, sigma: dwellSigma, clampedTo: 1 ... 86_400_000))
    }

    // MARK: Intents

    func isRoutable(_ intent: Int, _ script: LifecycleScript) -> Bool {
        let route = script.intentRoutes[intent]
        return route == .max || script.tabs[Int(route)] == .enabled
    }

    /// Whether `intent` is still on its way to the screen: a task of its own runs, or its
    /// envelope waits, unhandled, as the latest pending route. A newer intent supersedes only
    /// such an intent; one that already failed or was dropped stays lost.
    func isUnderWay(_ intent: Int32) -> Bool {
        if intents[Int(intent)].runningTasks > 0 { return true }
        return pending.envelope >= 0 && pending.intent == intent && envelopes[Int(pending.envelope)].handlerRuns == 0
    }

    /// The first input of an intent: it becomes the latest, superseding an unserved older one
    /// still under way, and is served at once if its screen is already on top.
    private mutating func start(intent: Int32, viaRouter: Bool, _ script: LifecycleScript) {
        let slot = Int(intent)
        guard !intents[slot].started else { return }
        intents[slot].started = true
        intents[slot].viaRouter = viaRouter
        guard isRoutable(slot, script) else { return }
        if latestIntent >= 0 && !intents[Int(latestIntent)].served && isUnderWay(latestIntent) {
            intents[Int(latestIntent)].superseded = true
        }
        latestIntent = intent
        let wanted = script.intentRoutes[slot]
        if wanted != .max && wanted == path.top {
            serve(slot, wanted, ownPush: false)
        }
    }

    private mutating func setback(_ intent: Int32, _ rule: FailureRule, source: UInt16) {
        intents[Int(intent)].setbackRule = rule
        intents[Int(intent)].setbackSource = source
    }
}
