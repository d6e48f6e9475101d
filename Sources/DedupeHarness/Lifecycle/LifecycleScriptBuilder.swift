import PushDedupe

/// Records routes, envelopes, intents and inputs in any order, then sorts the inputs by time
/// (stably) into a ``LifecycleScript``.
public struct LifecycleScriptBuilder {
    private var script: LifecycleScript
    private var envelopeRandom: SplitMix64

    public init(name: String, summary: String, seed: UInt64, hostAttachedAtStart: Bool = true) {
        script = LifecycleScript(
            name: name, summary: summary, routes: [], fingerprints: [], tabs: [], envelopes: [], envelopeRoutes: [],
            envelopeIntents: [], intentRoutes: [], inputs: [], hostAttachedAtStart: hostAttachedAtStart)
        envelopeRandom = SplitMix64(seed: DeterministicHashing.mix64(seed ^ 0x6c69_6665_6379_636c))
    }

    /// Adds a route and returns its index.
    @discardableResult
    public mutating func route(_ route: String, tab: LifecycleScript.TabState = .enabled) -> UInt32 {
        script.routes.append(route)
        script.fingerprints.append(RouteFingerprint(route: route))
        script.tabs.append(tab)
        return UInt32(script.routes.count - 1)
    }

    /// Starts an intent wanting `route` (`UInt32.max` for a checkout) and returns its number.
    public mutating func intent(wanting route: UInt32) -> Int32 {
        script.intentRoutes.append(route)
        return Int32(script.intentRoutes.count - 1)
    }

    /// A fresh envelope for `route` serving `intent`, with a random version-4 id.
    public mutating func envelope(route: UInt32, intent: Int32, id: EnvelopeID? = nil) -> Int32 {
        let high = envelopeRandom.next() & ~0xf000 | 0x4000
        let low = envelopeRandom.next() & ~(0xc << 60) | (0x8 << 60)
        script.envelopes.append(id ?? EnvelopeID(high: high, low: low))
        script.envelopeRoutes.append(route)
        script.envelopeIntents.append(intent)
        return Int32(script.envelopes.count - 1)
    }

    /// The intent `envelope` serves.
    public func intentOfEnvelope(_ envelope: Int32) -> Int32 {
        script.envelopeIntents[Int(envelope)]
    }

    /// Records `input`.
    public mutating func add(_ input: LifecycleScript.Input) {
        script.inputs.append(input)
    }

    /// A payload of `envelope` at `milliseconds`.
    public mutating func payload(_ envelope: Int32, at milliseconds: Double) {
        add(.init(time: Self.nanoseconds(milliseconds), kind: .payload, route: script.envelopeRoutes[Int(envelope)],
                  envelope: envelope, intent: script.envelopeIntents[Int(envelope)]))
    }

    /// An emit of `envelope` at `milliseconds`.
    public mutating func emit(_ envelope: Int32, at milliseconds: Double) {
        add(.init(time: Self.nanoseconds(milliseconds), kind: .emit, route: script.envelopeRoutes[Int(envelope)],
                  envelope: envelope, intent: script.envelopeIntents[Int(envelope)]))
    }

    /// A host event, a tap, a child's append or a checkout tap at `milliseconds`.
    public mutating func event(_ kind: LifecycleScript.Input.Kind, route: UInt32 = .max, intent: Int32 = -1, at milliseconds: Double) {
        add(.init(time: Self.nanoseconds(milliseconds), kind: kind, route: route, intent: intent))
    }

    /// The script, inputs sorted by time; ties keep recording order.
    ///
    /// - Complexity: O(*n* log *n*).
    public consuming func finish() -> LifecycleScript {
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
