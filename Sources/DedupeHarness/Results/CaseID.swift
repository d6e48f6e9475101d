import DedupeWorkloads

/// How a case derives the envelope id layer 2 consumes. See `Guides/Harness.md` § Identity.
package enum EnvelopeIdentity: String, Sendable, CaseIterable, Codable {
    /// A fresh id per payload, as the first article mints `UUID()` for every payload it
    /// normalizes: a push delivered twice is two envelopes.
    case minted
    /// The id the push carries (the app server's message id in the payload): every delivery of
    /// one push is one envelope. In-app navigations, which carry none, stay minted.
    case pushID = "push-id"
}

/// One layer of a case: the catalogue entry and the values of exactly the parameters it declares
/// it reads, in declaration order (`window=500ms`, `capacity=448`).
package struct LayerKey: Hashable, Sendable, Comparable {
    package var id: String
    package var parameters: [String]

    package init(id: String, reads: [StrategyParameter], _ values: CaseParameters) {
        self.id = id
        self.parameters = reads.map { $0.token(values) }
    }

    /// `fifo-set(capacity=448)`, `hash-deque(window=500ms;reserve=8)`, or the bare id for a
    /// strategy that reads nothing. Parameters are joined by `;`, so a case id needs no quoting
    /// in a CSV field or in a comma-separated `--filter` list.
    package var text: String {
        parameters.isEmpty ? id : "\(id)(\(parameters.joined(separator: ";")))"
    }

    package static func < (lhs: LayerKey, rhs: LayerKey) -> Bool { lhs.text < rhs.text }
}

/// What an engineer adopts: a mode, the strategy of each layer it uses with the parameters they
/// read, and, when it uses a consumed set, the envelope identity and the persistence. The same
/// choice runs on many workloads; ``CaseID`` adds the workload.
///
/// Its ``text`` is the one name of the choice: `two-layer/hash-deque(window=500ms;reserve=8)+fifo-set(capacity=448)/push-id/after-every-consume`.
package struct StrategyChoice: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var mode: CaseMode
    package var window: LayerKey?
    package var consumed: LayerKey?
    /// `nil` when the mode uses no consumed set.
    package var identity: EnvelopeIdentity?
    /// `nil` when the mode uses no consumed set.
    package var persistence: Persistence?

    package init(
        mode: CaseMode, window: LayerKey?, consumed: LayerKey?, identity: EnvelopeIdentity?, persistence: Persistence?
    ) {
        self.mode = mode
        self.window = mode.usesWindow ? window : nil
        self.consumed = mode.usesConsumedSet ? consumed : nil
        self.identity = mode.usesConsumedSet ? identity ?? .minted : nil
        self.persistence = mode.usesConsumedSet ? persistence ?? .memory : nil
    }

    /// `MODE/STRATEGIES[/IDENTITY/PERSISTENCE]`, strategies joined by `+` (`none` without any).
    package var text: String {
        var parts = [mode.rawValue, strategiesText]
        if let identity, let persistence { parts += [identity.rawValue, persistence.rawValue] }
        return parts.joined(separator: "/")
    }

    /// `hash-deque(window=500ms;reserve=8)+fifo-set(capacity=448)`.
    package var strategiesText: String {
        let layers = [window, consumed].compactMap { $0?.text }
        return layers.isEmpty ? "none" : layers.joined(separator: "+")
    }

    /// The same strategies at the published code's identity and persistence (`minted`,
    /// `memory`): the case the harness times and measures; every other choice is scored only.
    package var base: StrategyChoice {
        StrategyChoice(mode: mode, window: window, consumed: consumed, identity: .minted, persistence: .memory)
    }

    /// Whether this is its own ``base``.
    package var isBase: Bool { self == base }

    package var description: String { text }

    package static func < (lhs: StrategyChoice, rhs: StrategyChoice) -> Bool { lhs.text < rhs.text }
}

/// The one identity of a case: its workload and its ``StrategyChoice``. Every report, CSV
/// (`case` column), filter, decisions file and `compare` unit names a case by ``text``:
/// `marketing-burst/two-layer/hash-deque(window=500ms;reserve=8)+fifo-set(capacity=448)/minted/memory`.
package struct CaseID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var workload: String
    package var choice: StrategyChoice

    package init(workload: String, choice: StrategyChoice) {
        self.workload = workload
        self.choice = choice
    }

    /// `WORKLOAD/` and the choice's text.
    package var text: String { "\(workload)/\(choice.text)" }

    package var description: String { text }

    package static func < (lhs: CaseID, rhs: CaseID) -> Bool { lhs.text < rhs.text }
}

extension StrategyParameter {
    /// `window=500ms`, `reserve=8`, `capacity=448`, `fp=0.01`, `retention=7d`, `rate=0.25Hz` (ids per second): the
    /// canonical, exact token of this parameter's value in `values`, as case ids write it.
    package func token(_ values: CaseParameters) -> String {
        switch self {
        case .windowLength: return "window=\(Self.durationToken(milliseconds: values.windowMilliseconds))"
        case .windowCapacity, .capacity:
            return "capacity=\(self == .windowCapacity ? values.windowCapacity : values.consumedCapacity)"
        case .windowReservation, .reservation:
            return "reserve=\(self == .windowReservation ? values.windowCapacity : values.consumedCapacity)"
        case .falsePositiveRate: return "fp=\(NumberText.exact(values.falsePositiveRate))"
        case .retention: return "retention=\(Self.durationToken(milliseconds: values.retentionMilliseconds))"
        case .expectedRate: return "rate=\(NumberText.exact(values.expectedRatePerSecond ?? 0))Hz"
        }
    }

    /// A duration in the largest of d, h, min, s, ms that writes it as a whole number, else in ms
    /// with the shortest decimal that reads back exactly.
    static func durationToken(milliseconds: Double) -> String {
        if milliseconds > 0, milliseconds == milliseconds.rounded(), milliseconds < 9e15 {
            let whole = Int64(milliseconds)
            for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("min", 60_000), ("s", 1_000)] where whole % size == 0 {
                return "\(whole / size)\(unit)"
            }
        }
        return "\(NumberText.exact(milliseconds))ms"
    }
}
