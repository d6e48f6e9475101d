import PushDedupe

/// Days of one phone running one app, at a stated push rate, with the app's lifecycle: the user
/// opens it, leaves it (`background`), iOS kills it while suspended, and the next launch is a
/// `relaunch`. Every duplicate comes from a mechanism of `Guides/Workloads.md` § Mechanisms, at
/// the rates of § Device weeks, and happens where the lifecycle lets it happen: a stale initial
/// notification only at a cold launch, a content-available push only while the process lives.
///
/// Generation has two steps. A plan, drawn up front from the seed, fixes what the world does
/// whatever state the app is in: when pushes arrive (bursts in waking hours), which ones the user
/// taps and when, when the user opens the app from its icon, and when iOS would kill it. A walk
/// over the plan in time order then applies it to the app's state and records what reaches the
/// router. One push is one intent: its first delivery is `new`, every other delivery `dup`.
struct DeviceWeekModel {
    struct Parameters {
        var days = 7
        /// Mean pushes the server sends a day, all in waking hours.
        var pushesPerDay: Double
        /// Waking hours, hours after midnight: pushes, taps and app opens fall between them.
        var wakeHour = 7.0
        var sleepHour = 23.0
        /// Pushes arrive in bursts (one conversation or campaign each, one screen), geometric in
        /// size, with exponential spacing inside a burst (ms).
        var meanBurstSize: Double
        var meanBurstSpacing: Double
        /// The screens pushes open: `kind:1…screens`, Zipf-popular.
        var pushKind: RouteKind
        var screens: Int
        var zipfExponent: Double
        /// Share of pushes with `content-available`: handled by the background callback on
        /// arrival while the process lives.
        var contentAvailableShare: Double
        /// Share of pushes whose notification the user taps, and the delay (log-normal, ms);
        /// a tap that would fall at night waits for the morning.
        var tapProbability: Double
        var tapMedian: Double
        var tapSigma = 1.5
        /// After a tap, the probability that the user taps another notification of the same
        /// burst (a new push, the same screen) 0.2–10 s later: a wanted re-tap.
        var retapProbability = 0.1
        /// Times a day the user opens the app, and the foreground time of a session (log-normal,
        /// ms). An open is a tap on the newest notification still in Notification Center with
        /// `openFromNotificationProbability`, otherwise from the icon.
        var appOpensPerDay: Double
        var openFromNotificationProbability = 0.3
        var sessionMedian: Double
        /// Times a day iOS would kill the app; a kill lands only if the app is suspended then.
        var killsPerDay: Double
        /// At a cold launch from a notification: the payload also comes through `didReceive`;
        /// the router replays its pending route when the host attaches, and then from its ready
        /// callback too.
        var launchOptionsTwiceProbability = 0.3
        var pendingRouteProbability = 0.5
        var readyCallbackProbability = 0.5
        /// Probability that a process has its push handler registered twice (a re-init): every
        /// delivery in it is repeated, a quarter of them three times.
        var listenerTwiceProbability = 0.1
        /// Share of pushes the server sends to a second, stale token; the copy arrives seconds
        /// later, and the user taps its notification too with `secondCopyTapProbability`.
        var multiTokenShare = 0.05
        var secondCopyTapProbability = 0.5
        /// Probability that a cold launch from the icon returns the notification that last
        /// cold-launched the app (the SDK bug; 1: every launch, as the threads report).
        var staleInitialProbability = 1.0
        /// In-app navigations per foreground minute, with a double tap or a second async
        /// completion at the NavigationStack cases' delays.
        var navigationsPerMinute: Double
        var doubleTapProbability = 0.05
        var asyncCompletionProbability = 0.03
    }

    let parameters: Parameters

    static let day = 86_400_000.0
    static let hour = 3_600_000.0

    func workload(name: String, summary: String, seed: UInt64, actionTiming: ActionTimingFacts) -> Workload {
        var planRandom = SplitMix64(seed: seed)
        let plan = Plan(parameters, using: &planRandom)
        var walk = Walk(parameters: parameters, plan: plan, seed: seed, actionTiming: actionTiming)
        walk.run()
        return walk.builder.finish(name: name, summary: summary)
    }
}

extension DeviceWeekModel {
    /// One push the server sent.
    struct PlannedPush {
        var arrival: Double
        var burst: Int
        var screen: Int
        var contentAvailable: Bool
        /// When the copy sent to the second token arrives, if there is one.
        var secondArrival: Double?
        var tap: Double?
        var tapSource = PushSource.tap
        var secondCopyTap: Double?
    }

    /// What the plan makes happen at a time, whatever the app's state.
    enum Stimulus {
        /// A content-available push (or its second copy) reaches the background callback.
        case backgroundDelivery(push: Int, secondCopy: Bool)
        case tap(push: Int, source: PushSource)
        case appOpen
        case kill
    }

    struct Plan {
        var pushes: [PlannedPush] = []
        /// Sorted by time; ties keep planning order.
        var stimuli: [(time: Double, stimulus: Stimulus)] = []
        let end: Double

        init(_ p: Parameters, using random: inout SplitMix64) {
            end = Double(p.days) * DeviceWeekModel.day
            let waking = (p.sleepHour - p.wakeHour) * DeviceWeekModel.hour
            let totalWaking = Double(p.days) * waking
            // Waking time to wall time: the nights are skipped.
            func wall(_ awake: Double) -> Double {
                let day = (awake / waking).rounded(.down)
                return day * DeviceWeekModel.day + p.wakeHour * DeviceWeekModel.hour + (awake - day * waking)
            }
            // The next waking moment at or after `time`: a night's tap waits for the morning.
            func awake(_ time: Double, _ random: inout SplitMix64) -> Double {
                let day = (time / DeviceWeekModel.day).rounded(.down)
                let hour = (time - day * DeviceWeekModel.day) / DeviceWeekModel.hour
                if hour >= p.wakeHour && hour < p.sleepHour { return time }
                let morning = (hour < p.wakeHour ? day : day + 1) * DeviceWeekModel.day + p.wakeHour * DeviceWeekModel.hour
                return morning + random.uniform(0, DeviceWeekModel.hour)
            }

            let popularity = ZipfDistribution(count: p.screens, exponent: p.zipfExponent)
            var awakeClock = random.exponential(mean: waking * p.meanBurstSize / p.pushesPerDay)
            var burst = 0
            while awakeClock < totalWaking {
                let screen = popularity.sample(using: &random)
                var time = wall(awakeClock)
                for position in 0..<random.geometric(mean: p.meanBurstSize) {
                    if position > 0 { time += random.exponential(mean: p.meanBurstSpacing) }
                    pushes.append(PlannedPush(arrival: time, burst: burst, screen: screen,
                                              contentAvailable: random.bernoulli(p.contentAvailableShare)))
                }
                burst += 1
                awakeClock += random.exponential(mean: waking * p.meanBurstSize / p.pushesPerDay)
            }

            // Bursts may overlap: arrival order, so the walk can find the newest notification.
            pushes = pushes.enumerated().sorted { ($0.element.arrival, $0.offset) < ($1.element.arrival, $1.offset) }.map(\.element)
            for index in pushes.indices {
                var push = pushes[index]
                if random.bernoulli(p.multiTokenShare) {
                    push.secondArrival = push.arrival + random.logNormal(median: 3_000, sigma: 0.8, clampedTo: 300 ... 20_000)
                }
                // A push re-tapped by the previous one's user keeps that tap.
                if push.tap == nil, random.bernoulli(p.tapProbability) {
                    let delay = random.logNormal(median: p.tapMedian, sigma: p.tapSigma, clampedTo: 1_000 ... DeviceWeekModel.day)
                    push.tap = awake(push.arrival + delay, &random)
                }
                if let tap = push.tap {
                    if push.secondArrival != nil, random.bernoulli(p.secondCopyTapProbability) {
                        let delay = random.logNormal(median: 60_000, sigma: p.tapSigma, clampedTo: 1_000 ... DeviceWeekModel.day)
                        push.secondCopyTap = awake(tap + delay, &random)
                    }
                    // Another notification of the burst, not delivered before (no background
                    // callback, no second copy), so the re-tap is its first delivery: wanted.
                    let next = index + 1
                    if next < pushes.count, random.bernoulli(p.retapProbability), pushes[next].burst == push.burst,
                       pushes[next].tap == nil, !pushes[next].contentAvailable {
                        let retap = tap + random.logNormal(median: 1_500, sigma: 0.6, clampedTo: 200 ... 10_000)
                        if retap >= pushes[next].arrival {
                            pushes[next].tap = retap
                            pushes[next].tapSource = .retap
                        }
                    }
                }
                pushes[index] = push
            }
            // A re-tapped push must not get a second copy: its re-tap is its only delivery.
            for index in pushes.indices where pushes[index].tapSource == .retap {
                pushes[index].secondArrival = nil
                pushes[index].secondCopyTap = nil
            }

            for (index, push) in pushes.enumerated() {
                if push.contentAvailable {
                    stimuli.append((push.arrival + random.uniform(10, 500), .backgroundDelivery(push: index, secondCopy: false)))
                    if let second = push.secondArrival {
                        stimuli.append((second + random.uniform(10, 500), .backgroundDelivery(push: index, secondCopy: true)))
                    }
                }
                if let tap = push.tap { stimuli.append((tap, .tap(push: index, source: push.tapSource))) }
                if let tap = push.secondCopyTap { stimuli.append((tap, .tap(push: index, source: .secondToken))) }
            }
            var opens = random.exponential(mean: waking / p.appOpensPerDay)
            while opens < totalWaking {
                stimuli.append((wall(opens), .appOpen))
                opens += random.exponential(mean: waking / p.appOpensPerDay)
            }
            var kill = random.exponential(mean: DeviceWeekModel.day / p.killsPerDay)
            while kill < end {
                stimuli.append((kill, .kill))
                kill += random.exponential(mean: DeviceWeekModel.day / p.killsPerDay)
            }
            let limit = end
            stimuli = stimuli.enumerated()
                .filter { $0.element.time < limit }
                .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
                .map(\.element)
        }
    }
}

extension DeviceWeekModel {
    /// The app's state while the plan plays out, and the builder recording what reaches the
    /// router.
    struct Walk {
        let parameters: Parameters
        let plan: Plan
        var builder: WorkloadBuilder
        var random: SplitMix64
        let navigationPopularity = ZipfDistribution(count: 500, exponent: 0.9)
        /// Whether a process exists (foreground or suspended).
        var alive = false
        var launched = false
        /// A session is open until `foregroundUntil`; its background is not written yet.
        var inForeground = false
        var foregroundUntil = 0.0
        var listenerTwice = false
        /// The push whose notification last cold-launched the app: what a buggy SDK returns again.
        var launchNotification: Int?
        var intents: [Int?]
        var pushIDs: [UInt32?]
        /// Whether the push's notification was tapped (it then leaves Notification Center).
        var tapped: [Bool]
        /// Pushes arrived so far: the prefix of `plan.pushes` up to the current time.
        var arrived = 0

        init(parameters: Parameters, plan: Plan, seed: UInt64, actionTiming: ActionTimingFacts) {
            self.parameters = parameters
            self.plan = plan
            builder = WorkloadBuilder(seed: seed, expectedEvents: plan.stimuli.count * 2, actionTiming: actionTiming)
            random = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x7765_656b_5f77_616c))
            intents = Array(repeating: nil, count: plan.pushes.count)
            pushIDs = Array(repeating: nil, count: plan.pushes.count)
            tapped = Array(repeating: false, count: plan.pushes.count)
        }

        mutating func run() {
            for (time, stimulus) in plan.stimuli {
                writeBackgroundIfDone(by: time)
                while arrived < plan.pushes.count && plan.pushes[arrived].arrival <= time { arrived += 1 }
                switch stimulus {
                case .backgroundDelivery(let push, let secondCopy):
                    // A killed app is not woken for it (iOS throttles background pushes).
                    if alive { deliver(push, source: secondCopy ? .secondToken : .contentAvailable, at: time) }
                case .tap(let push, let source):
                    // The second copy is a notification of its own; the first can be tapped once.
                    if source != .secondToken {
                        guard !tapped[push] else { continue }
                        tapped[push] = true
                    }
                    tap(push, source: source, at: time)
                case .appOpen:
                    if random.bernoulli(parameters.openFromNotificationProbability), let newest = newestUntapped() {
                        tapped[newest] = true
                        tap(newest, source: .tap, at: time)
                    } else if alive {
                        foreground(from: time)
                    } else {
                        launch(at: time)
                        foreground(from: time)
                        if let stale = launchNotification, random.bernoulli(parameters.staleInitialProbability) {
                            deliver(stale, source: .initialNotification, at: time + random.uniform(50, 500))
                        }
                    }
                case .kill:
                    // iOS kills suspended apps, never the one in front.
                    if alive && !inForeground { alive = false }
                }
            }
            writeBackgroundIfDone(by: .infinity)
        }

        /// The newest arrived push whose notification is still in Notification Center.
        private func newestUntapped() -> Int? {
            var index = arrived - 1
            while index >= 0 && tapped[index] { index -= 1 }
            return index >= 0 ? index : nil
        }

        private mutating func tap(_ push: Int, source: PushSource, at time: Double) {
            if alive {
                deliver(push, source: source, at: time)
                foreground(from: time)
            } else {
                coldLaunchFromNotification(push, at: time)
            }
        }

        private mutating func coldLaunchFromNotification(_ push: Int, at time: Double) {
            launch(at: time)
            foreground(from: time)
            let first = time + random.uniform(300, 1_500)
            let (handle, intent) = deliver(push, source: .coldLaunch, at: first)
            if random.bernoulli(parameters.launchOptionsTwiceProbability) {
                deliver(push, source: .tap, at: first + random.logUniform(1, 1_000))
            }
            if random.bernoulli(parameters.pendingRouteProbability) {
                builder.emit(of: handle, intent: intent, source: .pendingRoute,
                             at: nanoseconds(milliseconds: first + random.logUniform(10, 5_000)))
                if random.bernoulli(parameters.readyCallbackProbability) {
                    builder.emit(of: handle, intent: intent, source: .readyCallback,
                                 at: nanoseconds(milliseconds: first + random.logUniform(10, 5_000)))
                }
            }
            launchNotification = push
        }

        private mutating func launch(at time: Double) {
            // The first launch starts the workload; only later ones are relaunches.
            if launched { builder.relaunch(at: nanoseconds(milliseconds: time)) }
            launched = true
            alive = true
            listenerTwice = random.bernoulli(parameters.listenerTwiceProbability)
        }

        /// Opens or extends a session from `time`, with the in-app navigations of its new part.
        /// Sessions last at least 10 s, longer than any delivery a launch brings (under 6.5 s).
        private mutating func foreground(from time: Double) {
            let end = time + random.logNormal(median: parameters.sessionMedian, sigma: 1, clampedTo: 10_000 ... DeviceWeekModel.hour)
            let start = inForeground ? max(time, foregroundUntil) : time
            if end > start { navigations(from: start, to: end) }
            foregroundUntil = inForeground ? max(foregroundUntil, end) : end
            inForeground = true
        }

        /// A session that ended by `time` ends with the app entering the background.
        private mutating func writeBackgroundIfDone(by time: Double) {
            guard inForeground && foregroundUntil <= time else { return }
            builder.background(at: nanoseconds(milliseconds: foregroundUntil))
            inForeground = false
        }

        /// Button navigations in `start..<end`, each tapped 3.5 s before the session ends, a
        /// direct one sometimes tapped twice. A navigation behind an async action is a tap whose
        /// action fetches, then pushes the screen; an impatient second tap starts a second action
        /// whose completion pushes the next screen id (a dup), and a wanted re-tap after the first
        /// finished a new intent.
        private mutating func navigations(from start: Double, to end: Double) {
            let mean = 60_000 / parameters.navigationsPerMinute
            var time = start + random.exponential(mean: mean)
            while time < end - 3_500 {
                let intent = builder.newIntent()
                let screen = navigationPopularity.sample(using: &random)
                if random.bernoulli(parameters.asyncCompletionProbability) {
                    action(intent: intent, screen: screen, at: time)
                } else {
                    builder.payload(intent: intent, kind: .document, id: screen, source: .button, at: nanoseconds(milliseconds: time))
                    if random.bernoulli(parameters.doubleTapProbability) {
                        builder.payload(intent: intent, kind: .document, id: screen, source: .button,
                                        at: nanoseconds(milliseconds: time + random.uniform(80, 300)))
                    }
                }
                time += random.exponential(mean: mean)
            }
        }

        /// A tap at `time` on the button of `screen`, whose action fetches before the screen
        /// shows, and a second tap of it (``ActionTimingFacts``); a double callback or a wanted
        /// re-tap of the first action sometimes follows.
        private mutating func action(intent: Int, screen: Int, at time: Double) {
            let key = "open-\(screen)"
            let first = builder.tappedAction(intent: intent, key: key, kind: .document, id: screen, at: time)
            let delay = WorkloadBuilder.secondTapDelay(using: &random)
            builder.tappedAction(intent: intent, key: key, kind: .document, id: screen + 1, at: time + delay)
            _ = builder.followUps(of: first, intent: intent, key: key, kind: .document, id: screen, retapID: screen + 2,
                                  random: &random)
        }

        /// A delivery of `push` to the app: a payload with a fresh minted envelope and the push's
        /// id, repeated back to back when this process registered its handler twice. Returns the
        /// first payload and the push's intent, for its emits.
        @discardableResult
        private mutating func deliver(
            _ push: Int, source: PushSource, at time: Double
        ) -> (handle: WorkloadBuilder.PayloadHandle, intent: Int) {
            let intent = intents[push] ?? builder.newIntent()
            intents[push] = intent
            let id = pushIDs[push] ?? builder.newPush()
            pushIDs[push] = id
            let screen = plan.pushes[push].screen
            let kind = parameters.pushKind
            let handle = builder.payload(intent: intent, kind: kind, id: screen, source: source, push: id,
                                         at: nanoseconds(milliseconds: time))
            if listenerTwice {
                var repeated = time
                for _ in 0..<(random.bernoulli(0.25) ? 3 : 1) {
                    repeated += random.uniform(0, 2)
                    builder.payload(intent: intent, kind: kind, id: screen, source: .secondListener, push: id,
                                    at: nanoseconds(milliseconds: repeated))
                }
            }
            return (handle, intent)
        }
    }
}
