import DedupeHarness
import DedupeWorkloads
import PushDedupe

/// The Swift an app writes to adopt a strategy choice, with its types and its configuration as
/// literals: what `run` and `replay` print and `headline.md` holds. `Tests/DedupeReportsTests`
/// compiles the reference run's block; `.ci/check-adoption` compiles and runs what `replay`
/// prints for a recorded trace.
package enum AdoptionCode {
    /// One sentence on what adopting `candidate` means: the identity, the persistence and the pair.
    package static func sentence(_ candidate: Candidate, store: StorePick?) -> String {
        var parts: [String] = []
        switch candidate.choice.identity {
        case .pushID?: parts.append("key envelopes by the push's own id (the server's message id in every payload)")
        case .minted?: parts.append("a fresh envelope id per payload (no push id needed)")
        case nil: break
        }
        // A journal, mapped journal or database records each consume itself.
        let design = storeDesign(store)
        let recording = design == DedupeStore.Design.snapshot.rawValue ? nil : design
        switch candidate.choice.persistence {
        case .afterEveryConsume?, .onBackground?:
            if let recording {
                parts.append("record every consume in a `\(recording)` store")
            } else {
                parts.append(candidate.choice.persistence == .afterEveryConsume
                    ? "save the consumed set after every consume" : "save the consumed set when the app enters the background")
            }
        case .memory?: parts.append("keep the consumed set in memory")
        case nil: break
        }
        let pair = [candidate.window, candidate.consumed].compactMap { $0.map { "`\($0)`" } }.joined(separator: " + ")
        parts.append("\(pair) (\(candidate.guaranteeText); \(candidate.parameterText))")
        var text = parts.joined(separator: ", ")
        let persists = candidate.choice.persistence.map { $0 != .memory } ?? false
        if let preset = matchingPreset(candidate, storeDesign: design), !persists || preset.storeDesign.rawValue == design {
            text += ", which is `RecommendedPreset.\(preset.version)`"
        }
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }

    /// The adoption code, ending in a newline: the store is `store`'s design when the candidate
    /// persists (``Recommendation/store``), the snapshot design without one.
    package static func swift(_ candidate: Candidate, store: StorePick?) -> String {
        let identity = candidate.choice.identity ?? .minted
        if candidate.consumed == nil, let pipeline = candidate.windowType, candidate.choice.mode.usesConsumedSet {
            return wholePipeline(pipeline, candidate, identity: identity)
        }
        var out = "import PushDedupe\n\n"
        out += "// Once, in the router. The store's URL is the app's: Application Support, or an App Group container.\n"
        let design = storeDesign(store)
        let store = storeExpression(candidate.choice.persistence, design: design)
        let persistsWithTheStore = candidate.choice.persistence == .afterEveryConsume
        if let preset = matchingPreset(candidate, storeDesign: design) {
            // A version whose own store design is the pick's takes just the file.
            let ownStore = persistsWithTheStore && preset.storeDesign.rawValue == design
            out += ownStore
                ? "let dedupe = MainActorDeduplicator(preset: RecommendedPreset.\(preset.version), storeURL: storeURL)\n"
                : "let dedupe = MainActorDeduplicator(preset: RecommendedPreset.\(preset.version), store: \(store))\n"
        } else if let windowType = candidate.windowType, let consumedType = candidate.consumedType {
            out += "let dedupe = try MainActorDeduplicator<\(windowType), \(consumedType)>(\n"
            out += "    window: \(windowType)(configuration: \(windowLiteral(candidate))),\n"
            out += "    consumed: \(consumedLiteral(candidate)),\n"
            out += "    store: \(store))\n"
        } else {
            return "// The pick names no Swift types (results without them); see the report's parameters.\n"
        }
        out += "// Right after a payload is normalized to a route:\n"
        switch identity {
        case .pushID:
            out += "let decision = dedupe.receivePayload(route: route, pushID: messageID)\n"
            out += "// At the router's entry for every envelope emitted again (pending route, ready callback):\n"
            out += "let replay = dedupe.receiveEmit(pushID: messageID)\n"
        case .minted:
            out += "let envelope = UUID()\n"
            out += "let decision = dedupe.receivePayload(route: route, envelope: envelope)\n"
            out += "// At the router's entry for every envelope emitted again (pending route, ready callback):\n"
            out += "let replay = dedupe.receiveEmit(envelope: envelope)\n"
        }
        if candidate.choice.persistence == .onBackground && design == DedupeStore.Design.snapshot.rawValue {
            out += "// In sceneDidEnterBackground / applicationDidEnterBackground:\n"
            out += "dedupe.didEnterBackground()\n"
        }
        return out
    }

    /// A team's own whole pipeline, kept as it is, at the run's sizing: its two entry points with
    /// the id the pick keys envelopes by.
    static func wholePipeline(_ type: String, _ candidate: Candidate, identity: EnvelopeIdentity) -> String {
        let envelope = identity == .pushID ? "EnvelopeID(token: messageID)" : "EnvelopeID(uuid: UUID())"
        var out = "import PushDedupe\n\n"
        out += "// Once, in the router: the team's own type, at the run's sizing.\n"
        out += "var dedupe = try \(type)(window: \(windowLiteral(candidate)), consumed: \(consumedLiteral(candidate)))\n"
        out += "// Right after a payload is normalized to a route (`now`: the time, as a Timestamp):\n"
        out += "let envelope = \(envelope)\n"
        out += "let decision = dedupe.receivePayload(RouteFingerprint(route: route), envelope: envelope, at: now)\n"
        out += "// At the router's entry for every envelope emitted again (pending route, ready callback):\n"
        out += "let replay = dedupe.receiveEmit(envelope: envelope, at: now)\n"
        return out
    }

    /// The picked store's design, or, for results that measured none (a replayed trace), the
    /// design the newest preset version carries: the reference run's pick.
    static func storeDesign(_ store: StorePick?) -> String {
        store?.design ?? RecommendedPreset.latest.storeDesign.rawValue
    }

    /// The `DedupeStore` for `persistence`: `design`'s factory (the snapshot design's saving as
    /// the persistence says), or `.none` for a set kept in memory.
    static func storeExpression(_ persistence: Persistence?, design: String? = nil) -> String {
        let saving: String
        switch persistence {
        case .afterEveryConsume?: saving = ".afterEveryConsume"
        case .onBackground?: saving = ".onBackground"
        case .memory?, nil: return ".none"
        }
        return StorePick.factory(design ?? DedupeStore.Design.snapshot.rawValue, url: "storeURL", saving: saving)
            ?? ".snapshot(storeURL, saving: \(saving))"
    }

    /// The window configuration of the parameters the window reads (the others at their defaults).
    static func window(_ candidate: Candidate) -> WindowConfiguration {
        let reads = candidate.windowReads ?? []
        var configuration = WindowConfiguration()
        if reads.contains(.windowLength) { configuration.window = .nanoseconds(Timestamp.milliseconds(candidate.parameters.windowMilliseconds).nanoseconds) }
        if reads.contains(.windowCapacity) || reads.contains(.windowReservation) { configuration.capacity = candidate.parameters.windowCapacity }
        return configuration
    }

    /// The consumed-set configuration of the parameters the set reads (the others at their defaults).
    static func consumed(_ candidate: Candidate) -> ConsumedSetConfiguration {
        let reads = candidate.consumedReads ?? []
        let p = candidate.parameters
        var configuration = ConsumedSetConfiguration()
        if reads.contains(.capacity) || reads.contains(.reservation) { configuration.capacity = p.consumedCapacity }
        if reads.contains(.falsePositiveRate) { configuration.falsePositiveRate = p.falsePositiveRate }
        if reads.contains(.retention) { configuration.retention = .nanoseconds(Timestamp.milliseconds(p.retentionMilliseconds).nanoseconds) }
        if reads.contains(.expectedRate), let rate = p.expectedRatePerSecond { configuration.expectedRatePerSecond = rate }
        return configuration
    }

    /// `WindowConfiguration(window: .milliseconds(500), capacity: 8)`.
    static func windowLiteral(_ candidate: Candidate) -> String {
        let reads = candidate.windowReads ?? []
        var arguments: [String] = []
        if reads.contains(.windowLength) { arguments.append("window: \(durationLiteral(candidate.parameters.windowMilliseconds))") }
        if reads.contains(.windowCapacity) || reads.contains(.windowReservation) {
            arguments.append("capacity: \(candidate.parameters.windowCapacity)")
        }
        return "WindowConfiguration(\(arguments.joined(separator: ", ")))"
    }

    /// `ConsumedSetConfiguration(capacity: 1750)`.
    static func consumedLiteral(_ candidate: Candidate) -> String {
        let reads = candidate.consumedReads ?? []
        let p = candidate.parameters
        var arguments: [String] = []
        if reads.contains(.capacity) || reads.contains(.reservation) { arguments.append("capacity: \(p.consumedCapacity)") }
        if reads.contains(.falsePositiveRate) { arguments.append("falsePositiveRate: \(NumberText.exact(p.falsePositiveRate))") }
        if reads.contains(.retention) { arguments.append("retention: \(durationLiteral(p.retentionMilliseconds))") }
        if reads.contains(.expectedRate), let rate = p.expectedRatePerSecond {
            arguments.append("expectedRatePerSecond: \(NumberText.exact(rate))")
        }
        return "ConsumedSetConfiguration(\(arguments.joined(separator: ", ")))"
    }

    /// `.milliseconds(500)`, `.seconds(604800)`, or nanoseconds where neither is whole.
    static func durationLiteral(_ milliseconds: Double) -> String {
        let nanoseconds = Timestamp.milliseconds(milliseconds).nanoseconds
        if nanoseconds % 1_000_000_000 == 0 { return ".seconds(\(nanoseconds / 1_000_000_000))" }
        if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(nanoseconds / 1_000_000))" }
        return ".nanoseconds(\(nanoseconds))"
    }
}
