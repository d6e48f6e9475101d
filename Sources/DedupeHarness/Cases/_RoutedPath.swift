import DedupeLifecycle
import DedupeWorkloads
import PushDedupe

/// The navigation of the harness's `two-layer-guarded` mode and of its scoring: the shipped
/// ``RouterCore`` owns the path and decides every push and every recorded tap, and a simulated
/// user walks back through it. The guards are the core's, not a model of them; only the user's
/// behaviour is the harness's. The loading guard hears the workload's own action records
/// (``EventColumns/actions``): a tap starts an action unless one with its key runs, and the
/// action runs until its recorded finish or cancel, so the guard holds exactly as long as the
/// action did. A completion whose tap the core ignored never comes.
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
    /// Per action, by number: 0 until its tap started it (or while the core ignored the tap), 1
    /// once it ran and ended, `life + 2` while it runs in process life `life`. Grows to the
    /// workload's action count once, at the first run's taps.
    private var actionStates: [UInt32] = []
    /// Relaunches so far: an action of an earlier life died with its process.
    private var life: UInt32 = 0
    /// The next action record and action completion to replay.
    private var nextRecord = 0
    private var nextCompletion = 0

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

    /// The app was relaunched: the path and the running actions are lost, and a new core starts
    /// on its storage. The dwell table goes on where it was, in the loop and in its scoring alike.
    ///
    /// - Complexity: O(1).
    mutating func relaunch() {
        router.relaunch()
        popTime = .max
        life += 1
    }

    /// Hands the core every action record that happened before event `position`: a tap as
    /// ``RouterEvent/actionTriggered(_:)``, and the finish or cancel of an action the core started
    /// in this process as ``RouterEvent/actionFinished(_:)`` (the router reports every exit so).
    ///
    /// - Complexity: O(1) per record.
    @inline(__always)
    mutating func replayActions(before position: Int, of log: ActionLog) {
        while nextRecord < log.records.count, log.records[nextRecord].position <= position {
            replay(log.records[nextRecord], of: log)
            nextRecord += 1
        }
    }

    private mutating func replay(_ record: ActionRecord, of log: ActionLog) {
        let key = ActionKey(log.keys[Int(record.key)])
        let action = Int(record.action)
        switch record.kind {
        case .started:
            if actionStates.count <= action {
                actionStates.append(contentsOf: repeatElement(0, count: max(action + 1, log.actionCount) - actionStates.count))
            }
            router.handle(.actionTriggered(key))
            if router.effects.last == .startAction(key) { actionStates[action] = life + 2 }
        case .finished, .cancelled:
            guard action < actionStates.count, actionStates[action] == life + 2 else { return }
            router.handle(.actionFinished(key))
            actionStates[action] = 1
        }
    }

    /// Whether the action whose completion made event `event` ran: the core started it at its
    /// tap. A completion may come after its action ended (a callback fired twice, a retry); it
    /// still comes, since the action ran. Call it, in ascending order, only for events flagged
    /// ``EventColumns/isActionCompletion(_:)``.
    ///
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func actionRan(completing event: Int, of log: ActionLog) -> Bool {
        let completions = log.completions
        while nextCompletion < completions.count, completions[nextCompletion].event < event { nextCompletion += 1 }
        guard nextCompletion < completions.count, completions[nextCompletion].event == event else { return true }
        let action = Int(completions[nextCompletion].action)
        return action < actionStates.count && actionStates[action] != 0
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
