import PushDedupe
import Testing

/// An app around a `RouterCore`, with a ledger that keeps what is reserved in memory apart from
/// what is committed to its store, so a test can kill the process between any two effects: the
/// core and the memory go, the store stays.
struct KillableApp {
    var core: RouterCore<String>
    private(set) var memory: Set<EnvelopeID> = []
    private(set) var durable: Set<EnvelopeID> = []
    /// Routes the user saw, in every life: an append counts once its main-actor turn is over.
    private(set) var shown: [String] = []
    private(set) var started: [WorkToken] = []
    /// Effects carried out, counted across turns, and the count after which the process dies.
    private(set) var effectsApplied = 0
    /// The process dies once only: the next launch runs to the end.
    private var killAfter: Int?
    private(set) var killed = false

    init(_ configuration: RouterConfiguration, killAfter: Int? = nil) {
        core = RouterCore(configuration: configuration)
        self.killAfter = killAfter
    }

    /// A delivery of push `pushID` for `route`: the ledger's test-and-set, then the core.
    mutating func deliver(_ route: String, pushID: String) {
        let envelope = EnvelopeID(token: pushID)
        let decision: RoutingDecision = memory.insert(envelope).inserted ? .navigated : .suppressedByConsumedSet
        turn(.routeRequested(route, envelope: envelope, decision: decision))
    }

    /// One main-actor turn: the core's effects, in order, until the kill point.
    mutating func turn(_ event: RouterEvent<String>) {
        guard !killed else { return }
        var effects: [RouterEffect<String>] = []
        core.handle(event, into: &effects)
        var appended: [String] = []
        for effect in effects {
            if effectsApplied == killAfter {
                killed = true
                return
            }
            effectsApplied += 1
            switch effect {
            case let .startWork(token, _): started.append(token)
            case let .append(route): appended.append(route)
            case let .commitConsume(envelope, _): durable.insert(envelope)
            case .cancelWork, .ignore, .startAction: break
            }
        }
        shown += appended
    }

    /// Reports the end of every work started since the last call, oldest first.
    mutating func completeStartedWork() {
        let tokens = started
        started = []
        for token in tokens { turn(.workCompleted(token)) }
    }

    /// The next launch: a new core on what the store holds.
    mutating func relaunch(_ configuration: RouterConfiguration) {
        core = RouterCore(configuration: configuration)
        memory = durable
        started = []
        killed = false
        killAfter = nil
    }
}

/// The articles' situations, one by one, on the core.
@Suite struct RouterCoreScenarioTests {
    static func effects(_ core: inout RouterCore<String>, _ event: RouterEvent<String>) -> [RouterEffect<String>] {
        var effects: [RouterEffect<String>] = []
        core.handle(event, into: &effects)
        return effects
    }

    @Test func aDoubleTapDuringASlowActionRunsItOnce() {
        var core = RouterCore<String>()
        #expect(Self.effects(&core, .actionTriggered("checkout")) == [.startAction("checkout")])
        #expect(Self.effects(&core, .actionTriggered("checkout")) == [.ignore(.inFlightAction)])
        #expect(core.isBusy("checkout") && !core.isBusy("refund"))
        #expect(Self.effects(&core, .actionTriggered("refund")) == [.startAction("refund")])
        #expect(Self.effects(&core, .buttonPushed("receipt:1")) == [.append("receipt:1")])
        _ = Self.effects(&core, .actionFinished("checkout"))
        #expect(!core.isBusy("checkout"))
        #expect(Self.effects(&core, .actionTriggered("checkout")) == [.startAction("checkout")])
        #expect(core.path == ["receipt:1"])
    }

    @Test func aPushDuringAFetchCancelsItAndShowsTheNewRouteOnce() {
        var core = RouterCore<String>()
        let first = EnvelopeID(token: "msg-1"), second = EnvelopeID(token: "msg-2")
        #expect(Self.effects(&core, .routeRequested("item:1", envelope: first, decision: .navigated))
            == [.startWork(WorkToken(0), "item:1")])
        #expect(Self.effects(&core, .routeRequested("item:2", envelope: second, decision: .navigated))
            == [.cancelWork(WorkToken(0)), .commitConsume(first, .superseded), .startWork(WorkToken(1), "item:2")])
        // The old fetch finished before it saw the cancel: it still may not push.
        #expect(Self.effects(&core, .workCompleted(WorkToken(0))) == [.ignore(.superseded)])
        #expect(Self.effects(&core, .workCompleted(WorkToken(1))) == [.append("item:2"), .commitConsume(second, .shown)])
        #expect(Self.effects(&core, .workCancelled(WorkToken(0))).isEmpty)
        #expect(core.path == ["item:2"])
    }

    @Test func aReplayedEnvelopeIsIgnored() {
        var app = KillableApp(RouterConfiguration())
        app.deliver("item:1", pushID: "msg-1")
        app.turn(.workCompleted(WorkToken(0)))
        app.deliver("item:1", pushID: "msg-1")
        #expect(app.started == [WorkToken(0)])
        #expect(app.shown == ["item:1"])
    }

    @Test func aBackSwipeThenTheSameRouteIsAllowed() {
        var core = RouterCore<String>()
        _ = Self.effects(&core, .buttonPushed("profile"))
        #expect(Self.effects(&core, .buttonPushed("profile")) == [.ignore(.duplicateOnTop)])
        #expect(Self.effects(&core, .userChangedPath([])).isEmpty)
        #expect(Self.effects(&core, .buttonPushed("profile")) == [.append("profile")])
        // A NavigationLink's double append through the binding goes through the same guard.
        #expect(Self.effects(&core, .userChangedPath(["profile", "profile"])) == [.ignore(.duplicateOnTop)])
        #expect(core.path == ["profile"])
    }

    /// A push-driven route finds the same screen on top, pushed meanwhile by a button: the router
    /// guards its push too, and the envelope is committed at that early return.
    @Test func aRoutedPushIsGuardedByTheTopOfTheStack() {
        var core = RouterCore<String>()
        let envelope = EnvelopeID(token: "msg-1")
        _ = Self.effects(&core, .routeRequested("item:1", envelope: envelope, decision: .navigated))
        _ = Self.effects(&core, .buttonPushed("item:1"))
        #expect(Self.effects(&core, .workCompleted(WorkToken(0)))
            == [.ignore(.duplicateOnTop), .commitConsume(envelope, .alreadyOnTop)])
        #expect(Self.effects(&core, .routeRequested("item:1", envelope: EnvelopeID(token: "msg-2"), decision: .navigated))
            == [.ignore(.duplicateOnTop), .commitConsume(EnvelopeID(token: "msg-2"), .alreadyOnTop)])
        #expect(core.path == ["item:1"])
    }

    /// Killed mid-fetch: the launch after replays the push (its pending route, or the initial
    /// notification), and only reserve-then-commit still shows it.
    @Test(arguments: ConsumeTiming.allCases)
    func aKillMidFetch(consume: ConsumeTiming) {
        var configuration = RouterConfiguration()
        configuration.consume = consume
        var app = KillableApp(configuration)
        app.deliver("item:1", pushID: "msg-1")
        app.relaunch(configuration)
        app.deliver("item:1", pushID: "msg-1")
        app.turn(.workCompleted(WorkToken(0)))
        #expect(app.shown == (consume == .reserveThenCommit ? ["item:1"] : []), "\(consume): the tap is lost")
    }

    @Test(arguments: ConsumeTiming.allCases)
    func aKillAfterTheScreenShowsDoesNotShowItAgain(consume: ConsumeTiming) {
        var configuration = RouterConfiguration()
        configuration.consume = consume
        var app = KillableApp(configuration)
        app.deliver("item:1", pushID: "msg-1")
        app.turn(.workCompleted(WorkToken(0)))
        app.relaunch(configuration)
        app.deliver("item:1", pushID: "msg-1")
        app.turn(.workCompleted(WorkToken(0)))
        #expect(app.shown == ["item:1"])
    }

    /// The process killed after every effect of a routed push, superseded or shown, and the push
    /// replayed twice at the next launch: the default shows each push exactly once at every kill
    /// point; the published order loses one at some.
    @Test(arguments: [RouterConfiguration(), .published])
    func aKillSweepOverTheRoutersEffects(configuration: RouterConfiguration) {
        func life(_ app: inout KillableApp) {
            app.deliver("item:1", pushID: "msg-1")
            app.deliver("item:2", pushID: "msg-2")
            app.turn(.workCompleted(WorkToken(0)))
            app.turn(.workCompleted(WorkToken(1)))
        }
        var whole = KillableApp(configuration)
        life(&whole)
        var lostAt: [Int] = []
        for killPoint in 0...whole.effectsApplied {
            var app = KillableApp(configuration, killAfter: killPoint)
            life(&app)
            app.relaunch(configuration)
            for pushID in ["msg-1", "msg-2", "msg-1", "msg-2"] {
                app.deliver(pushID == "msg-1" ? "item:1" : "item:2", pushID: pushID)
                app.completeStartedWork()
            }
            // The superseded push may show once after the kill, if the kill came before it was
            // superseded; the latest must show exactly once.
            #expect(app.shown.filter { $0 == "item:1" }.count <= 1, "killed after \(killPoint) effects: \(app.shown)")
            let shownLatest = app.shown.filter { $0 == "item:2" }.count
            #expect(shownLatest <= 1, "killed after \(killPoint) effects: item:2 shown twice: \(app.shown)")
            if shownLatest == 0 { lostAt.append(killPoint) }
        }
        if configuration.consume == .reserveThenCommit {
            #expect(lostAt.isEmpty, "the tap is lost when killed after \(lostAt) effects")
        } else {
            #expect(!lostAt.isEmpty, "commit-before-work should lose the tap killed mid-fetch")
        }
    }
}
