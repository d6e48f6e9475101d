import PushDedupe

/// The harness's shell around one shipped ``RouterCore``: it hands the core events, keeps the
/// buffers it does so with, and goes back through the core's path for a simulated user. The core
/// decides every push, cancel and action; the caller reads ``effects`` and ``top``.
///
/// Driving it allocates nothing once its buffers are sized: the effects go into one reused
/// buffer, and a path the user leaves is built in a spare buffer, whose storage the core keeps,
/// while the core's old storage becomes the spare. Its path holds at most ``capacity`` + 1
/// screens without growing; the caller forgets the bottom one (``dropBottom()``) to stay there.
///
/// The two buffers live in a ``_RouterBuffers`` object that copies of the driver share: the
/// verifier copies a whole simulated run at every branch of its search, and buffers held by value
/// would be copied again at the first event after each copy. Sharing them changes no result: the
/// effects are read right after the event that made them, and the spare only inside one call.
struct _RouterDriver {
    /// Screens a path keeps: as many as the simulated user's path (`_DwellingPath`).
    static let capacity = _DwellingPath.capacity

    private(set) var core: RouterCore<UInt32>
    /// `nil` only in an inert driver, which is never driven.
    private let storage: _RouterBuffers?

    init(configuration: RouterConfiguration) {
        core = RouterCore(configuration: configuration)
        let buffers = _RouterBuffers()
        // A core event asks for at most a few effects; unread ones pile up to `unreadEffects`.
        buffers.effects.reserveCapacity(Self.unreadEffects + 8)
        // One more than the capacity: a push onto a full path appends before the bottom goes.
        buffers.spare.reserveCapacity(Self.capacity + 1)
        var sized: [UInt32] = []
        sized.reserveCapacity(Self.capacity + 1)
        core.handle(.userChangedPath(sized), into: &buffers.effects)
        storage = buffers
    }

    private init(core: RouterCore<UInt32>) {
        self.core = core
        storage = nil
    }

    /// A driver with no storage, for a holder that never drives it (a mode without the guard),
    /// so it allocates nothing. It may be relaunched, but never handed an event.
    static var inert: _RouterDriver {
        _RouterDriver(core: RouterCore())
    }

    private var buffers: _RouterBuffers {
        guard let storage else { preconditionFailure("an inert router driver was driven") }
        return storage
    }

    /// The effects of the latest event, in the order the core asked for them.
    var effects: [RouterEffect<UInt32>] { buffers.effects }

    /// The route on top of the core's path, `UInt32.max` when it is empty.
    var top: UInt32 { core.path.last ?? .max }

    /// Hands `event` to the core; its effects replace ``effects``.
    ///
    /// - Complexity: the core's (O(1) for a push or a report).
    @inline(__always)
    mutating func handle(_ event: RouterEvent<UInt32>) {
        let buffers = buffers
        buffers.effects.removeAll(keepingCapacity: true)
        core.handle(event, into: &buffers.effects)
    }

    /// Hands `event` to the core and leaves its effects unread, for a caller the path tells what
    /// the core did. The buffer is emptied only when it fills, since emptying it destroys each
    /// effect in turn (a per-event cost in the guarded loop).
    ///
    /// - Complexity: the core's, plus O(1) amortized.
    @inline(__always)
    mutating func handleIgnoringEffects(_ event: RouterEvent<UInt32>) {
        let buffers = buffers
        if buffers.effects.count >= Self.unreadEffects { buffers.effects.removeAll(keepingCapacity: true) }
        core.handle(event, into: &buffers.effects)
    }

    /// Effects ``handleIgnoringEffects(_:)`` lets pile up before it empties the buffer.
    private static let unreadEffects = 64

    /// Whether the latest event appended a screen.
    var appended: Bool {
        buffers.effects.contains { if case .append = $0 { true } else { false } }
    }

    /// The user goes back from the top screen: the path without it, as the view hands it to the
    /// router.
    ///
    /// - Complexity: O(depth).
    mutating func dropTop() {
        keepScreens(0..<max(0, core.path.count - 1))
    }

    /// The path forgets its bottom screen, which no user walks back to.
    ///
    /// - Complexity: O(depth).
    mutating func dropBottom() {
        keepScreens(min(1, core.path.count)..<core.path.count)
    }

    /// The process died: a new core with the same configuration, on this core's storage.
    ///
    /// - Complexity: O(1).
    mutating func relaunch() {
        guard storage != nil else {
            // An inert driver has no screens and no storage to keep: a new core allocates nothing.
            core = RouterCore(configuration: core.configuration)
            return
        }
        keepScreens(0..<0)
        let emptied = core.path
        core = RouterCore(configuration: core.configuration)
        core.handle(.userChangedPath(emptied), into: &buffers.effects)
    }

    /// The core's path becomes `screens` of it, handed over as the view would.
    @inline(__always)
    private mutating func keepScreens(_ screens: Range<Int>) {
        let buffers = buffers
        var outgoing = core.path
        buffers.spare.removeAll(keepingCapacity: true)
        buffers.spare.append(contentsOf: outgoing[screens])
        core.handle(.userChangedPath(buffers.spare), into: &buffers.effects)
        swap(&buffers.spare, &outgoing)
    }
}

/// The reused buffers of a ``_RouterDriver``, shared by its copies.
final class _RouterBuffers {
    var effects: [RouterEffect<UInt32>] = []
    /// The path the next back or trim hands to the core.
    var spare: [UInt32] = []
}
