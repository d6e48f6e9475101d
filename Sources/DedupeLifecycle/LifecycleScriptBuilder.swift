import PushDedupe

/// Records routes, envelopes, intents, sources and inputs in any order, then sorts the inputs by
/// time (stably) into a ``LifecycleScript``.
package struct LifecycleScriptBuilder {
    private var script: LifecycleScript
    private var envelopeRandom: SplitMix64
    /// Source index by label. Looked up, never iterated.
    private var sourceIndex: [String: UInt16] = [:]

    package init(
        name: String, summary: String, seed: UInt64, hostAttachedAtStart: Bool = true,
        scheduling: LifecycleScript.Scheduling = .drawn
    ) {
        script = LifecycleScript(
            name: name, summary: summary, routes: [], fingerprints: [], tabs: [], envelopes: [], envelopeRoutes: [],
            envelopeIntents: [], intentRoutes: [], sources: [], inputs: [], hostAttachedAtStart: hostAttachedAtStart,
            scheduling: scheduling, leftOut: [])
        envelopeRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x6c69_6665_6379_636c))
    }

    /// The label each input kind gets when the caller names none.
    package static func defaultSource(of kind: LifecycleScript.Input.Kind) -> String {
        switch kind {
        case .payload: "tap"
        case .emit, .hostAttach: "pending_route"
        case .hostDetach: "host_detach"
        case .tap: "button"
        case .childAppend: "second_path_owner"
        case .checkoutTap: "async_completion"
        case .background: "background"
        case .relaunch: "relaunch"
        case .taskEnd: "task_end"
        case .taskCancel: "task_cancel"
        case .back: "back"
        }
    }

    /// The label of the host attach a drawn script's simulator adds after each relaunch.
    package static let coldLaunchSource = "cold_launch"

    /// Adds a route and returns its index.
    @discardableResult
    package mutating func route(_ route: String, tab: LifecycleScript.TabState = .enabled) -> UInt32 {
        script.routes.append(route)
        script.fingerprints.append(RouteFingerprint(route: route))
        script.tabs.append(tab)
        return UInt32(script.routes.count - 1)
    }

    /// Starts an intent wanting `route` (`UInt32.max` for a checkout) and returns its number.
    package mutating func intent(wanting route: UInt32) -> Int32 {
        script.intentRoutes.append(route)
        return Int32(script.intentRoutes.count - 1)
    }

    /// A fresh envelope for `route` serving `intent`, with a random version-4 id unless `id` is
    /// given.
    package mutating func envelope(route: UInt32, intent: Int32, id: EnvelopeID? = nil) -> Int32 {
        let high = envelopeRandom.next() & ~0xf000 | 0x4000
        let low = envelopeRandom.next() & ~(0xc << 60) | (0x8 << 60)
        script.envelopes.append(id ?? EnvelopeID(high: high, low: low))
        script.envelopeRoutes.append(route)
        script.envelopeIntents.append(intent)
        return Int32(script.envelopes.count - 1)
    }

    /// A push's usual tables: an intent wanting `route`, and the fresh envelope serving it.
    package mutating func envelope(wanting route: UInt32) -> Int32 {
        envelope(route: route, intent: intent(wanting: route))
    }

    /// The intent `envelope` was created for.
    package func intentOfEnvelope(_ envelope: Int32) -> Int32 {
        script.envelopeIntents[Int(envelope)]
    }

    /// The route `envelope` carries.
    package func routeOfEnvelope(_ envelope: Int32) -> UInt32 {
        script.envelopeRoutes[Int(envelope)]
    }

    /// Whether `intent` is a checkout's (it wants no screen known in advance).
    func wantsCheckout(_ intent: Int32) -> Bool {
        script.intentRoutes[Int(intent)] == .max
    }

    /// Sets how the script starts: the host and where task ends come from.
    mutating func setStart(hostAttached: Bool, scheduling: LifecycleScript.Scheduling) {
        script.hostAttachedAtStart = hostAttached
        script.scheduling = scheduling
    }

    /// The index of the mechanism `label`, adding it on first use.
    package mutating func source(_ label: String) -> UInt16 {
        if let known = sourceIndex[label] { return known }
        let index = UInt16(script.sources.count)
        script.sources.append(label)
        sourceIndex[label] = index
        return index
    }

    /// Records `input`.
    package mutating func add(_ input: LifecycleScript.Input) {
        script.inputs.append(input)
    }

    /// Records a delivery the conversion left out.
    mutating func leaveOut(_ source: String, reason: String) {
        if let index = script.leftOut.firstIndex(where: { $0.source == source && $0.reason == reason }) {
            script.leftOut[index].count += 1
        } else {
            script.leftOut.append(.init(source: source, count: 1, reason: reason))
        }
    }

    /// A payload of `envelope` at `milliseconds`, through `source` (default `tap`).
    package mutating func payload(_ envelope: Int32, at milliseconds: Double, source label: String? = nil, intent: Int32? = nil) {
        let source = source(label ?? Self.defaultSource(of: .payload))
        add(.init(time: Self.nanoseconds(milliseconds), kind: .payload, route: script.envelopeRoutes[Int(envelope)],
                  envelope: envelope, intent: intent ?? script.envelopeIntents[Int(envelope)], source: source))
    }

    /// An emit of `envelope` at `milliseconds`, through `source` (default `pending_route`).
    package mutating func emit(_ envelope: Int32, at milliseconds: Double, source label: String? = nil) {
        let source = source(label ?? Self.defaultSource(of: .emit))
        add(.init(time: Self.nanoseconds(milliseconds), kind: .emit, route: script.envelopeRoutes[Int(envelope)],
                  envelope: envelope, intent: script.envelopeIntents[Int(envelope)], source: source))
    }

    /// A host or lifecycle event, a tap, a child's append or a checkout tap at `milliseconds`.
    package mutating func event(
        _ kind: LifecycleScript.Input.Kind, route: UInt32 = .max, intent: Int32 = -1, at milliseconds: Double,
        source label: String? = nil
    ) {
        let source = source(label ?? Self.defaultSource(of: kind))
        add(.init(time: Self.nanoseconds(milliseconds), kind: kind, route: route, intent: intent, source: source))
    }

    /// Scripted scheduling: task `task` (start order, from 0) ends at `milliseconds`.
    package mutating func taskEnd(_ task: Int32, succeeds: Bool, at milliseconds: Double) {
        let source = source(Self.defaultSource(of: .taskEnd))
        add(.init(time: Self.nanoseconds(milliseconds), kind: .taskEnd, source: source, task: task, succeeds: succeeds))
    }

    /// The script, inputs sorted by time; ties keep recording order. A script with a relaunch
    /// gets the `cold_launch` label its simulator uses for the host attach after the kill.
    ///
    /// - Complexity: O(*n* log *n*).
    package consuming func finish() -> LifecycleScript {
        if script.sources.isEmpty { _ = source(Self.defaultSource(of: .payload)) }
        if script.inputs.contains(where: { $0.kind == .relaunch }) { _ = source(Self.coldLaunchSource) }
        let order = script.inputs.indices.sorted {
            (script.inputs[$0].time, $0) < (script.inputs[$1].time, $1)
        }
        script.inputs = order.map { script.inputs[$0] }
        return script
    }

    /// Milliseconds as whole nanoseconds, saturating.
    static func nanoseconds(_ milliseconds: Double) -> Int64 {
        let value = (milliseconds * 1_000_000).rounded()
        guard value < 9.2e18 else { return .max }
        guard value > -9.2e18 else { return .min }
        return Int64(value)
    }
}
