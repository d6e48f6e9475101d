/// A navigation path the user walks back through: a stack of screens; the user dwells on the
/// top one, then goes back (a pop), and dwells on the screen revealed.
///
/// The caller supplies every dwell time, so the two users of the type draw them their own way
/// (a precomputed table in the harness's guarded mode, a seeded stream in the lifecycle
/// simulator). Storage is a fixed ring of ``capacity`` entries allocated once: a push onto a full
/// path forgets the bottom screen, which no user walks back to. Nothing here allocates after
/// `init`.
struct _DwellingPath {
    /// One screen on the path.
    struct Entry: Hashable {
        var route: UInt32
        /// Who appended it: 0 the path's (parent) owner, 1 a child keeping its own path.
        var owner: UInt8
        /// The intent it was pushed for; -1 when the caller does not track intents.
        var intent: Int32
    }

    /// Screens kept; a power of two.
    static let capacity = 256
    private static let mask = capacity - 1

    private var entries: [Entry]
    private var bottom = 0
    /// Screens on the path.
    private(set) var count = 0
    /// When the user leaves the top screen; `Int64.max` while the path is empty or the revealed
    /// screen waits for ``dwellOnRevealed(_:)``.
    private(set) var popTime: Int64 = .max
    /// When the latest pop happened: where the revealed screen's dwell starts.
    private var revealedAt: Int64 = 0

    init() {
        entries = [Entry](repeating: Entry(route: .max, owner: 0, intent: -1), count: Self.capacity)
    }

    /// A path with no storage, for a holder that never pushes (a mode without the guard), so it
    /// allocates nothing.
    static var inert: _DwellingPath {
        _DwellingPath(storage: [])
    }

    private init(storage: [Entry]) {
        entries = storage
    }

    var isEmpty: Bool { count == 0 }

    /// Empties the path, keeping its storage.
    ///
    /// - Complexity: O(1).
    mutating func removeAll() {
        bottom = 0
        count = 0
        popTime = .max
        revealedAt = 0
    }

    /// The bottom screen, the one a push onto a full path forgets; `nil` when empty.
    ///
    /// - Complexity: O(1).
    var bottomScreen: Entry? {
        count == 0 ? nil : entries[bottom]
    }

    /// The route on top, `UInt32.max` when empty.
    ///
    /// - Complexity: O(1).
    var top: UInt32 {
        count == 0 ? .max : entries[(bottom + count - 1) & Self.mask].route
    }

    /// Appends `entry` at `now`; the user leaves it `dwell` ns later.
    ///
    /// - Complexity: O(1).
    mutating func push(_ entry: Entry, at now: Int64, dwell: Int64) {
        if count == Self.capacity {
            bottom = (bottom + 1) & Self.mask
            count -= 1
        }
        entries[(bottom + count) & Self.mask] = entry
        count += 1
        popTime = Self.adding(now, dwell)
    }

    /// Pops the top screen when the user has left it by `now`, and returns it. When a screen is
    /// revealed, the caller must give its dwell with ``dwellOnRevealed(_:)`` before the next pop.
    ///
    /// - Complexity: O(1).
    mutating func popIfDue(at now: Int64) -> Entry? {
        guard count > 0, popTime <= now else { return nil }
        count -= 1
        revealedAt = popTime
        popTime = .max
        return entries[(bottom + count) & Self.mask]
    }

    /// Pops the top screen now, whatever its dwell (the user going back at a scripted moment),
    /// and returns it; `nil` when the path is empty. No pop is then due until a push.
    ///
    /// - Complexity: O(1).
    mutating func popTop() -> Entry? {
        guard count > 0 else { return nil }
        count -= 1
        popTime = .max
        return entries[(bottom + count) & Self.mask]
    }

    /// Calls `body` with every screen, bottom to top, then empties the path (the process died).
    ///
    /// - Complexity: O(depth).
    mutating func removeAll(visiting body: (Entry) -> Void) {
        for depth in 0..<count { body(entries[(bottom + depth) & Self.mask]) }
        removeAll()
    }

    /// Starts the user's dwell on the screen the latest pop revealed.
    ///
    /// - Complexity: O(1).
    mutating func dwellOnRevealed(_ dwell: Int64) {
        if count > 0 { popTime = Self.adding(revealedAt, dwell) }
    }

    /// The route of the highest screen `owner` appended, `UInt32.max` if none: what `path.last`
    /// is for an owner that keeps its own path.
    ///
    /// - Complexity: O(depth) in the worst case; O(1) with one owner.
    func lastRoute(ownedBy owner: UInt8) -> UInt32 {
        var depth = count
        while depth > 0 {
            depth -= 1
            let entry = entries[(bottom + depth) & Self.mask]
            if entry.owner == owner { return entry.route }
        }
        return .max
    }

    /// The screens bottom to top (allocates; for tests and invariant checks).
    var screens: [Entry] {
        (0..<count).map { entries[(bottom + $0) & Self.mask] }
    }

    private static func adding(_ time: Int64, _ dwell: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(max(0, dwell))
        return overflow ? .max : sum
    }
}
