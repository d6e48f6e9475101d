import PushDedupe

/// A process killed at every step of a routed push: the shipped ``RouterCore`` drives a push that
/// a second push supersedes, the process dies after each of the effects the core asked for in
/// turn, and the next launch replays both pushes (the pending route, the initial notification).
/// Counts, over the kill points, the taps lost (the latest push never shown) and the duplicates
/// shown (a screen shown twice, before and after the kill). See `Guides/Router.md` § Reserve, then
/// commit.
package struct RouterKillSweep: Codable, Sendable, Equatable {
    /// The ``ConsumeTiming`` id the core ran with.
    package var consume: String
    /// Whether it is the core's default configuration (every fix on) or the published code.
    package var configuration: String
    /// Kill points: after 0, 1, … effects, up to all of them (no kill).
    package var killPoints: Int
    /// Kill points after which the latest push never showed.
    package var tapsLost: Int
    /// Kill points after which some screen showed twice.
    package var duplicatesShown: Int

    /// The sweep under the default configuration, then under ``RouterConfiguration/published``.
    static func both() -> [RouterKillSweep] {
        [run(RouterConfiguration(), named: "default"), run(.published, named: "published")]
    }

    /// The sweep under `configuration`.
    ///
    /// - Complexity: O(effects²): one life per kill point.
    static func run(_ configuration: RouterConfiguration, named name: String) -> RouterKillSweep {
        var whole = _KillableRouter(configuration, killAfter: nil)
        whole.firstLife()
        var tapsLost = 0
        var duplicatesShown = 0
        for killPoint in 0...whole.effectsCarriedOut {
            var app = _KillableRouter(configuration, killAfter: killPoint)
            app.firstLife()
            app.nextLaunch(configuration)
            if !app.shown.contains(_KillableRouter.latest) { tapsLost += 1 }
            if Set(app.shown).count < app.shown.count { duplicatesShown += 1 }
        }
        return RouterKillSweep(
            consume: configuration.consume.rawValue, configuration: name, killPoints: whole.effectsCarriedOut + 1,
            tapsLost: tapsLost, duplicatesShown: duplicatesShown)
    }
}

/// The shell of one app's lives around a ``RouterCore``: a ledger consumed in memory and made
/// durable by the core's commits, the screens the user saw, and a process that dies after a set
/// number of effects.
struct _KillableRouter {
    /// The first push's screen, and the latest one, which supersedes it.
    static let first: UInt32 = 1
    static let latest: UInt32 = 2
    static let pushes: [(route: UInt32, envelope: EnvelopeID)] = [
        (first, EnvelopeID(high: 0, low: 1)), (latest, EnvelopeID(high: 0, low: 2)),
    ]

    private var core: RouterCore<UInt32>
    private var inMemory: Set<EnvelopeID> = []
    private var durable: Set<EnvelopeID> = []
    private var started: [WorkToken] = []
    /// Screens the user saw, in every life. An append counts once its main-actor turn is over:
    /// the screen renders after the turn.
    private(set) var shown: [UInt32] = []
    /// Effects carried out in the first life.
    private(set) var effectsCarriedOut = 0
    /// The first life dies after this many effects; `nil` runs it to the end.
    private let killAfter: Int?
    private var killed = false
    private var inFirstLife = true

    init(_ configuration: RouterConfiguration, killAfter: Int?) {
        core = RouterCore(configuration: configuration)
        self.killAfter = killAfter
    }

    /// Both pushes arrive, the second while the first one's fetch runs; then both fetches return.
    mutating func firstLife() {
        for push in Self.pushes { deliver(push.route, push.envelope) }
        for token in started { turn(.workCompleted(token)) }
    }

    /// A new process on what the store holds: both pushes are replayed twice, each fetch
    /// returning before the next delivery.
    mutating func nextLaunch(_ configuration: RouterConfiguration) {
        core = RouterCore(configuration: configuration)
        inMemory = durable
        killed = false
        inFirstLife = false
        for push in Self.pushes + Self.pushes {
            started = []
            deliver(push.route, push.envelope)
            for token in started { turn(.workCompleted(token)) }
        }
    }

    /// The ledger's test-and-set, then the core.
    private mutating func deliver(_ route: UInt32, _ envelope: EnvelopeID) {
        guard !killed else { return }
        let decision: RoutingDecision = inMemory.insert(envelope).inserted ? .navigated : .suppressedByConsumedSet
        turn(.routeRequested(route, envelope: envelope, decision: decision))
    }

    /// One main-actor turn: the core's effects in order, until the kill point of the first life.
    private mutating func turn(_ event: RouterEvent<UInt32>) {
        guard !killed else { return }
        var effects: [RouterEffect<UInt32>] = []
        core.handle(event, into: &effects)
        var appended: [UInt32] = []
        for effect in effects {
            if inFirstLife {
                if effectsCarriedOut == killAfter {
                    killed = true
                    return
                }
                effectsCarriedOut += 1
            }
            switch effect {
            case let .startWork(token, _): started.append(token)
            case let .append(route): appended.append(route)
            case let .commitConsume(envelope, _): durable.insert(envelope)
            case .cancelWork, .ignore, .startAction: break
            }
        }
        shown += appended
    }
}
