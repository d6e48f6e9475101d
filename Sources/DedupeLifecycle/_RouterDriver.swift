import PushDedupe

/// The shell around one shipped ``RouterCore``, for the simulator and the harness's guarded mode:
/// it hands the core events, keeps the buffers it does so with, and goes back through the core's
/// path for a simulated user. The core decides every push, cancel and action; the caller reads
/// ``effects`` and ``top``.
///
/// Driving it allocates nothing once its buffers are sized: the effects go into one reused
/// buffer, and a path the user leaves is built in a spare buffer, whose storage the core keeps,
/// while the core's old storage becomes the spare. Its path holds at most ``capacity`` + 1
/// screens without growing; the caller forgets the bottom one (``dropBottom()``) to stay there.
///
/// The buffers are held by value: shared through an object, they would spare the verifier's
/// copies of a run a copy each, but every event would then pay for the object's access checks,
/// which cost the guarded loop more (114 against 85 ns per event).
package struct _RouterDriver {
    /// Screens a path keeps: as many as the simulated user's path (`_DwellingPath`).
    package static let capacity = _DwellingPath.capacity

    package private(set) var core: RouterCore<UInt32>
    /// The effects of the latest event, in the order the core asked for them.
    @usableFromInline package private(set) var effects: [RouterEffect<UInt32>]
    /// The path the next back or trim hands to the core.
    private var spare: [UInt32]

    package init(configuration: RouterConfiguration) {
        core = RouterCore(configuration: configuration)
        // A core event asks for a few effects; unread ones pile up to `unreadEffects`.
        effects = []
        effects.reserveCapacity(2 * Self.unreadEffects)
        // One more than the capacity: a push onto a full path appends before the bottom goes.
        spare = []
        spare.reserveCapacity(Self.capacity + 1)
        var sized: [UInt32] = []
        sized.reserveCapacity(Self.capacity + 1)
        core.handle(.userChangedPath(sized), into: &effects)
    }

    private init(core: RouterCore<UInt32>) {
        self.core = core
        effects = []
        spare = []
    }

    /// A driver with no storage, for a holder that never drives it (a mode without the guard),
    /// so it allocates nothing. It may be relaunched, but never handed an event.
    package static var inert: _RouterDriver {
        _RouterDriver(core: RouterCore())
    }

    /// The route on top of the core's path, `UInt32.max` when it is empty.
    package var top: UInt32 { core.path.last ?? .max }

    /// Hands `event` to the core; its effects replace ``effects``.
    ///
    /// - Complexity: the core's (O(1) for a push or a report).
    @inline(__always)
    package mutating func handle(_ event: RouterEvent<UInt32>) {
        effects.removeAll(keepingCapacity: true)
        core.handle(event, into: &effects)
    }

    /// Hands `event` to the core and leaves its effects unread, for a caller the path tells what
    /// the core did. The buffer is emptied only when it fills, since emptying it destroys each
    /// effect in turn (a per-event cost in the guarded loop).
    ///
    /// Inlinable: the harness's guarded loop calls it for every event, from another module.
    ///
    /// - Complexity: the core's, plus O(1) amortized.
    @inlinable @inline(__always)
    package mutating func handleIgnoringEffects(_ event: RouterEvent<UInt32>) {
        if effects.count >= Self.unreadEffects { effects.removeAll(keepingCapacity: true) }
        core.handle(event, into: &effects)
    }

    /// Effects ``handleIgnoringEffects(_:)`` lets pile up before it empties the buffer: a push
    /// asks for one.
    @usableFromInline static let unreadEffects = 8

    /// Whether the latest event appended a screen.
    var appended: Bool {
        effects.contains { if case .append = $0 { true } else { false } }
    }

    /// The user goes back from the top screen: the path without it, as the view hands it to the
    /// router.
    ///
    /// - Complexity: O(depth).
    package mutating func dropTop() {
        keepScreens(0..<max(0, core.path.count - 1))
    }

    /// The path forgets its bottom screen, which no user walks back to.
    ///
    /// - Complexity: O(depth).
    package mutating func dropBottom() {
        keepScreens(min(1, core.path.count)..<core.path.count)
    }

    /// The process died: a new core with the same configuration, on this core's storage.
    ///
    /// - Complexity: O(1).
    package mutating func relaunch() {
        // Only an inert driver has no spare storage; it has no screens to keep either, and a
        // new core allocates nothing.
        guard spare.capacity > 0 else {
            core = RouterCore(configuration: core.configuration)
            return
        }
        keepScreens(0..<0)
        let emptied = core.path
        core = RouterCore(configuration: core.configuration)
        core.handle(.userChangedPath(emptied), into: &effects)
    }

    /// The core's path becomes `screens` of it, handed over as the view would.
    @inline(__always)
    private mutating func keepScreens(_ screens: Range<Int>) {
        var outgoing = core.path
        spare.removeAll(keepingCapacity: true)
        spare.append(contentsOf: outgoing[screens])
        core.handle(.userChangedPath(spare), into: &effects)
        swap(&spare, &outgoing)
    }
}
