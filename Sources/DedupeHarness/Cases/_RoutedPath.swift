import DedupeLifecycle
import DedupeWorkloads
import PushDedupe

/// The navigation of the harness's `two-layer-guarded` mode and of its scoring: the shipped
/// ``RouterCore`` owns the path and decides every push and every tap behind an async completion,
/// and a simulated user walks back through it. The guards are the core's, not a model of them;
/// only the user's behaviour and the action's hold are the harness's.
///
/// The user dwells on each screen for a log-normal time (median 15 s, σ = 1, the lifecycle
/// simulator's default) and then goes back, a ``RouterEvent/userChangedPath(_:)`` to the path
/// without its top, so a wanted re-tap after the user left the screen passes the guard. Dwell
/// times come from a table of ``tableSize`` samples drawn once from a fixed seed and used in
/// order, so the per-event path does no maths, and the loop and its scoring, making the same
/// calls, see the same pops.
///
/// The path keeps at most ``capacity`` screens: a push onto a full path forgets the bottom one,
/// which no user walks back to. That bounds the path's storage, so nothing here allocates after
/// `init` (see ``_RouterDriver``).
struct _RoutedPath {
    static let tableSize = 1_024
    static let seed: UInt64 = 0x6477_656c_6c5f_7061
    /// Screens kept: as many as the lifecycle simulator's path keeps.
    static let capacity = _RouterDriver.capacity

    private var router: _RouterDriver
    private let dwells: [Int64]
    private var nextDwell = 0
    /// When the user leaves the top screen; `Int64.max` while the path is empty.
    private var popTime: Int64 = .max
    /// Until when the replay holds ``asyncAction`` running; `Int64.min` while it does not.
    private var actionHeldUntil: Int64 = .min

    /// The action behind the in-app taps whose async completions the core's loading guard sees.
    static let asyncAction: ActionKey = "async-action"
    /// How long the replay holds an action running after its screen: a tap made while it ran
    /// completes within this (see ``admitsAsyncCompletion(at:)``).
    static let actionHold = Int64(PushSource.secondCompletionBoundMilliseconds * 1_000_000)

    /// A path for a mode without the guard: no storage, so the memory pass of such a mode
    /// measures only its strategies. It must never be pushed onto.
    static var inert: _RoutedPath {
        _RoutedPath(router: .inert, dwells: [])
    }

    private init(router: _RouterDriver, dwells: [Int64]) {
        self.router = router
        self.dwells = dwells
    }

    /// A path whose core guards the top of the stack on every push when `guardsTop` (the
    /// guarded loop), or on none (its scoring, which must push a duplicate to count it).
    init(guardsTop: Bool, configuration: LifecycleConfiguration = LifecycleConfiguration()) {
        var routerConfiguration = RouterConfiguration()
        routerConfiguration.topGuard = guardsTop ? .everyPush : []
        router = _RouterDriver(configuration: routerConfiguration)
        let standard = LifecycleConfiguration()
        let isStandard = configuration.dwellMedianMilliseconds == standard.dwellMedianMilliseconds
            && configuration.dwellSigma == standard.dwellSigma
        dwells = isStandard ? Self.standardDwells : Self.dwellTable(configuration)
    }

    /// The default configuration's table, drawn once and shared (it is never written): every
    /// case builds a path, and 1,024 log-normal draws cost more than the correctness pass of a
    /// short trace.
    private static let standardDwells = dwellTable(LifecycleConfiguration())

    private static func dwellTable(_ configuration: LifecycleConfiguration) -> [Int64] {
        var random = SplitMix64(seed: seed)
        return (0..<tableSize).map { _ in
            Int64(random.logNormal(
                median: configuration.dwellMedianMilliseconds, sigma: configuration.dwellSigma,
                clampedTo: 1 ... 3_600_000) * 1_000_000)
        }
    }

    /// The route on top of the core's path once the user's pops up to now are applied,
    /// `UInt32.max` when the path is empty.
    var top: UInt32 { router.top }

    /// The core's path, bottom first (for tests).
    var screens: [UInt32] { router.core.path }

    /// The user goes back from every screen whose dwell has ended by `now`.
    ///
    /// - Complexity: O(depth) per pop (the core takes a whole path).
    @inline(__always)
    mutating func advance(to now: Timestamp) {
        while popTime <= now.nanoseconds && !router.core.path.isEmpty {
            let revealedAt = popTime
            router.dropTop()
            // A dwell is drawn at every pop, even one that empties the path, so the table's
            // order does not depend on the path's depth.
            let dwell = takeDwell()
            popTime = router.core.path.isEmpty ? .max : Self.adding(revealedAt, dwell)
        }
    }

    /// Hands `route` to the core as a push at `now` (after ``advance(to:)``); returns whether the
    /// core appended it. The user starts dwelling on an appended screen.
    ///
    /// - Complexity: O(1), plus O(depth) when the push fills the path.
    @inline(__always)
    @discardableResult
    mutating func push(_ route: UInt32, at now: Timestamp) -> Bool {
        let depth = router.core.path.count
        router.handleIgnoringEffects(.buttonPushed(route))
        guard router.core.path.count > depth else { return false }
        if router.core.path.count > Self.capacity { router.dropBottom() }
        popTime = Self.adding(now.nanoseconds, takeDwell())
        return true
    }

    /// The app was relaunched: the path is lost, and a new core starts on its storage. The dwell
    /// table goes on where it was, in the loop and in its scoring alike.
    ///
    /// - Complexity: O(1).
    mutating func relaunch() {
        router.relaunch()
        popTime = .max
        actionHeldUntil = .min
    }

    /// Whether the core's loading guard lets the tap behind an async completion at `now` run;
    /// when it does not, the completion never comes.
    ///
    /// A trace records completions, not taps. A tap made while an action ran completes within
    /// ``actionHold`` of that action's screen (``PushSource/secondCompletionBoundMilliseconds``),
    /// so the replay holds the action running for that long after each tapped screen or admitted
    /// completion: the flight from tap to screen, shifted by its latency. The core decides the
    /// tap: ignored while the action runs, started otherwise.
    ///
    /// - Complexity: O(1).
    mutating func admitsAsyncCompletion(at now: Timestamp) -> Bool {
        releaseAction(at: now.nanoseconds)
        router.handle(.actionTriggered(Self.asyncAction))
        guard router.effects.last == .startAction(Self.asyncAction) else { return false }
        actionHeldUntil = Self.adding(now.nanoseconds, Self.actionHold)
        return true
    }

    /// A tapped payload's screen was pushed at `now`: its action runs for ``actionHold`` more.
    ///
    /// - Complexity: O(1).
    mutating func holdAction(at now: Timestamp) {
        releaseAction(at: now.nanoseconds)
        if actionHeldUntil == .min { router.handle(.actionTriggered(Self.asyncAction)) }
        actionHeldUntil = Self.adding(now.nanoseconds, Self.actionHold)
    }

    /// The held action ends once its hold is over by `now`.
    @inline(__always)
    private mutating func releaseAction(at now: Int64) {
        guard actionHeldUntil != .min, actionHeldUntil < now else { return }
        router.handle(.actionFinished(Self.asyncAction))
        actionHeldUntil = .min
    }

    /// Advances to `now`, then pushes `route` through the core's guard; returns whether it
    /// appended.
    ///
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func pushUnlessOnTop(_ route: UInt32, at now: Timestamp) -> Bool {
        advance(to: now)
        return push(route, at: now)
    }

    @inline(__always)
    private mutating func takeDwell() -> Int64 {
        defer { nextDwell = (nextDwell + 1) & (Self.tableSize - 1) }
        return dwells[nextDwell]
    }

    private static func adding(_ time: Int64, _ dwell: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(max(0, dwell))
        return overflow ? .max : sum
    }
}
