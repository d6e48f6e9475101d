/// The shape of one lifecycle scenario's episode, for `dedupe-bench verify`: its deliveries and
/// host and lifecycle events, which of them must come before which, and how many times the user
/// may go back. `LifecycleVerifier` runs every ordering of them, with every task ending (in
/// success or failure) at every point after it starts.
///
/// Time is abstracted to what the policies can observe: before a payload, the gap since the
/// window's entries is either *short* (inside the window) or *long* (outside it); everything
/// else is ordered, not timed. See `Guides/Policies.md` § Verify.
package struct LifecycleShape: Sendable {
    /// Where a payload's gap may fall.
    package enum Gap: Sendable, Equatable {
        /// Inside or outside the window: both are explored.
        case free
        /// Within the window of the event at this index, whichever comes first: the
        /// mechanism's delays never leave it (the same payload on a second path).
        case withinWindow(of: Int)
    }

    /// One event of the episode.
    package struct Event: Sendable {
        /// Its input; the time is set by the ordering.
        package var input: LifecycleScript.Input
        /// Events (by index) that must come before it.
        package var after: [Int]
        package var gap: Gap
    }

    /// The lifecycle scenario this is the episode of.
    package var scenario: String
    /// The bound, in words: what one episode holds.
    package var bound: String
    /// Routes, envelopes, intents and sources; scheduling scripted; no inputs.
    package var script: LifecycleScript
    package var events: [Event]
    /// At most this many times the user goes back, each at any point the path is not empty.
    package var backs: Int

    /// Whether the episode kills the process, so it is checked under every persistence.
    package var hasRelaunch: Bool { events.contains { $0.input.kind == .relaunch } }
}

/// Records a shape's tables and events.
struct _ShapeBuilder {
    var builder: LifecycleScriptBuilder
    var events: [LifecycleShape.Event] = []

    init(_ scenario: String, hostAttached: Bool = true) {
        builder = LifecycleScriptBuilder(
            name: scenario, summary: "verify episode", seed: 0, hostAttachedAtStart: hostAttached, scheduling: .scripted)
    }

    /// A routable screen `item:N`, or one whose tab is `tab`.
    mutating func route(_ number: Int, tab: LifecycleScript.TabState = .enabled) -> UInt32 {
        builder.route("item:\(number)", tab: tab)
    }

    /// An intent for `route` with one envelope.
    mutating func intent(_ route: UInt32) -> (intent: Int32, envelope: Int32) {
        let envelope = builder.envelope(wanting: route)
        return (builder.intentOfEnvelope(envelope), envelope)
    }

    @discardableResult
    mutating func add(
        _ kind: LifecycleScript.Input.Kind, envelope: Int32 = -1, route: UInt32 = .max, intent: Int32 = -1, source: String? = nil,
        after: [Int] = [], gap: LifecycleShape.Gap = .free
    ) -> Int {
        var input = LifecycleScript.Input(time: 0, kind: kind, route: route, envelope: envelope, intent: intent)
        if envelope >= 0 {
            input.route = builder.routeOfEnvelope(envelope)
            if intent < 0 { input.intent = builder.intentOfEnvelope(envelope) }
        }
        input.source = builder.source(source ?? LifecycleScriptBuilder.defaultSource(of: kind))
        events.append(.init(input: input, after: after, gap: gap))
        return events.count - 1
    }

    /// The process killed after `inputs`, then the cold launch's host attach; returns the kill.
    @discardableResult
    mutating func relaunch(after inputs: [Int]) -> Int {
        let relaunch = add(.relaunch, after: inputs)
        add(.hostAttach, source: LifecycleScriptBuilder.coldLaunchSource, after: [relaunch])
        return relaunch
    }

    /// The shape, named by the scenario the builder was made for.
    consuming func finish(bound: String, backs: Int) -> LifecycleShape {
        // Labels the verifier's own inputs use, so every counterexample names them.
        for kind in [LifecycleScript.Input.Kind.taskEnd, .back] { _ = builder.source(LifecycleScriptBuilder.defaultSource(of: kind)) }
        if events.contains(where: { $0.input.kind == .relaunch }) { _ = builder.source(LifecycleScriptBuilder.coldLaunchSource) }
        let script = builder.finish()
        return LifecycleShape(scenario: script.name, bound: bound, script: script, events: events, backs: backs)
    }
}
