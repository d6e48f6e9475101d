import DedupeHarness
import PushDedupe

/// One of a team's own strategies, registered with the bench: a window, a consumed set, or a
/// whole pipeline, with the configuration values it reads and a one-line summary. Its declared
/// ``Guarantee`` comes from its type.
///
/// ```swift
/// DedupeBench.main(adding: [
///     .window(RouteDateWindow.self, reads: [.windowLength], summary: "[String: Date] keyed by route"),
///     .consumedSet(LastHandledID.self, reads: [], summary: "the last handled id"),
///     .pipeline(TeamRouterDedupe.self, reads: [.windowLength], summary: "the router's dedupe as shipped"),
/// ])
/// ```
///
/// The type is erased here, once: the bench's per-event loop is generic over it and holds no
/// existential and no closure per event.
public struct BenchStrategy: Sendable {
    enum Kind: Sendable {
        case window(WindowEntry)
        case consumedSet(ConsumedSetEntry)
        case pipeline(PipelineEntry)
    }

    let kind: Kind

    /// A layer-1 window: runs alone, in `fingerprint-only`, and paired with every consumed set.
    ///
    /// - Parameters:
    ///   - reads: the fields of `WindowConfiguration` it reads (`.windowLength`, and
    ///     `.windowCapacity` as a bound or `.windowReservation` as a reservation); its case ids and
    ///     the sweeps show exactly these.
    public static func window<W: FingerprintWindow>(_ type: W.Type, reads: [ConfigurationParameter], summary: String) -> Self {
        Self(kind: .window(WindowEntry(type, reads: reads, summary: summary)))
    }

    /// A layer-2 consumed set: runs alone, in `envelope-only`, and behind every window. A type
    /// that also conforms to `SnapshottableConsumedSet` gets its `snapshot` rows.
    ///
    /// - Parameters:
    ///   - reads: the fields of `ConsumedSetConfiguration` it reads (`.capacity` or `.reservation`,
    ///     `.falsePositiveRate`, `.retention`, `.expectedRate`). A set that reads none is run as is.
    public static func consumedSet<C: ConsumedSet>(_ type: C.Type, reads: [ConfigurationParameter], summary: String) -> Self {
        Self(kind: .consumedSet(ConsumedSetEntry(type, reads: reads, summary: summary)))
    }

    /// A whole pipeline, both layers in one type: runs in `two-layer` and `two-layer-guarded` on
    /// every workload, at each identity, against the published code.
    public static func pipeline<P: DedupePipeline>(_ type: P.Type, reads: [ConfigurationParameter], summary: String) -> Self {
        Self(kind: .pipeline(PipelineEntry(type, reads: reads, summary: summary)))
    }

    /// The strategy's id.
    public var id: String {
        switch kind {
        case .window(let entry): entry.id
        case .consumedSet(let entry): entry.id
        case .pipeline(let entry): entry.id
        }
    }
}

extension StrategyCatalogue {
    /// The library's catalogue with `strategies` after its own, in the order given.
    ///
    /// - Throws: ``BenchRegistrationError`` for an id the catalogue or another strategy already
    ///   has, or one a case id cannot carry.
    static func standard(adding strategies: [BenchStrategy]) throws(BenchRegistrationError) -> StrategyCatalogue {
        var catalogue = StrategyCatalogue.standard
        var taken = Set(catalogue.windows.map(\.id) + catalogue.consumedSets.map(\.id))
        for strategy in strategies {
            let id = strategy.id
            guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
                throw BenchRegistrationError(message: "strategy id '\(id)' must be letters, digits, '-', '_' or '.'")
            }
            guard taken.insert(id).inserted else {
                throw BenchRegistrationError(message: "strategy id '\(id)' is registered twice; give each type its own strategyID")
            }
            switch strategy.kind {
            case .window(let entry): catalogue.windows.append(entry)
            case .consumedSet(let entry): catalogue.consumedSets.append(entry)
            case .pipeline(let entry): catalogue.pipelines.append(entry)
            }
        }
        return catalogue
    }
}

/// A registration the bench refuses: two strategies with one id, or an id a case id cannot hold.
public struct BenchRegistrationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
