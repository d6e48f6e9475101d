import DedupeWorkloads
import PushDedupe

/// The navigation path of the harness's `two-layer-guarded` mode and of its scoring: the
/// `path.last != route` guard on a path the user goes back through.
///
/// The user dwells on each screen for a log-normal time (median 15 s, σ = 1, the lifecycle
/// simulator's default) and then goes back, so a wanted re-tap after the user left the screen
/// passes the guard. Dwell times come from a table of ``tableSize`` samples drawn once from a
/// fixed seed and used in order, so the per-event path does no maths and allocates nothing, and
/// the loop and its scoring, making the same calls, see the same pops.
struct _GuardedPath {
    static let tableSize = 1_024
    static let seed: UInt64 = 0x6477_656c_6c5f_7061

    // No default value: a property initializer runs before `init(path:dwells:)` assigns the
    // inert path, so every unguarded case allocated and freed a 256-entry path (3,584 B, which
    // the memory pass's peak counted).
    private var path: _DwellingPath
    private let dwells: [Int64]
    private var nextDwell = 0

    /// A path for a mode without the guard: no storage, so the memory pass of such a mode
    /// measures only its strategies. It must never be pushed onto.
    static var inert: _GuardedPath {
        _GuardedPath(path: .inert, dwells: [])
    }

    private init(path: _DwellingPath, dwells: [Int64]) {
        self.path = path
        self.dwells = dwells
    }

    init(configuration: LifecycleConfiguration = LifecycleConfiguration()) {
        path = _DwellingPath()
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

    /// The route on top once the user's pops up to now are applied.
    var top: UInt32 { path.top }

    /// Applies every pop due by `now`.
    ///
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func advance(to now: Timestamp) {
        while path.popIfDue(at: now.nanoseconds) != nil {
            path.dwellOnRevealed(takeDwell())
        }
    }

    /// Pushes `route` at `now` (after ``advance(to:)``).
    ///
    /// - Complexity: O(1).
    @inline(__always)
    mutating func push(_ route: UInt32, at now: Timestamp) {
        path.push(.init(route: route, owner: 0, intent: -1), at: now.nanoseconds, dwell: takeDwell())
    }

    /// The app was relaunched: the path is lost. The dwell table goes on where it was, in the
    /// loop and in its scoring alike.
    ///
    /// - Complexity: O(1).
    mutating func relaunch() {
        path.removeAll()
    }

    /// The guard: pushes `route` unless it is on top; returns whether it pushed.
    ///
    /// - Complexity: O(1) amortized.
    @inline(__always)
    mutating func pushUnlessOnTop(_ route: UInt32, at now: Timestamp) -> Bool {
        advance(to: now)
        guard route != path.top else { return false }
        push(route, at: now)
        return true
    }

    @inline(__always)
    private mutating func takeDwell() -> Int64 {
        defer { nextDwell = (nextDwell + 1) & (Self.tableSize - 1) }
        return dwells[nextDwell]
    }
}
