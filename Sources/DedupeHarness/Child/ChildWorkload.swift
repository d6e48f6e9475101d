import DedupeWorkloads
import PushDedupe

/// A workload as a child process receives it: regenerated from its spec (a catalogue scenario),
/// or, for a trace, the events themselves, one column per field.
struct ChildWorkload: Codable, Sendable, Hashable {
    var spec: WorkloadSpec?
    var events: EventList?

    /// The events of a workload with no spec, column by column (JSON keeps them compact).
    struct EventList: Codable, Sendable, Hashable {
        var times: [Int64]
        var kinds: [UInt8]
        var envelopeHigh: [UInt64]
        var envelopeLow: [UInt64]
        var fingerprints: [UInt64]
        var routes: [UInt32]
        var sources: [UInt16]
        var truths: [UInt8]

        init(_ events: [WorkloadEvent]) {
            times = events.map(\.time.nanoseconds)
            kinds = events.map(\.kind.rawValue)
            envelopeHigh = events.map(\.envelope.high)
            envelopeLow = events.map(\.envelope.low)
            fingerprints = events.map(\.fingerprint.rawValue)
            routes = events.map(\.route)
            sources = events.map(\.source)
            truths = events.map(\.truth.rawValue)
        }

        /// The events, or `nil` when the columns differ in length or hold an unknown kind or truth.
        func decoded() -> [WorkloadEvent]? {
            let count = times.count
            guard [kinds.count, envelopeHigh.count, envelopeLow.count, fingerprints.count, routes.count, sources.count, truths.count]
                .allSatisfy({ $0 == count }) else { return nil }
            var events: [WorkloadEvent] = []
            events.reserveCapacity(count)
            for index in 0..<count {
                guard let kind = EventKind(rawValue: kinds[index]), let truth = Truth(rawValue: truths[index]) else { return nil }
                events.append(WorkloadEvent(
                    time: Timestamp(nanoseconds: times[index]), kind: kind,
                    envelope: EnvelopeID(high: envelopeHigh[index], low: envelopeLow[index]),
                    fingerprint: RouteFingerprint(rawValue: fingerprints[index]), route: routes[index],
                    source: sources[index], truth: truth))
            }
            return events
        }
    }

    /// The workload's events, regenerated or decoded.
    func makeEvents() throws(HarnessError) -> [WorkloadEvent] {
        if let spec {
            guard let workload = spec.make() else { throw .invalidPlan("child: unknown workload \(spec)") }
            return workload.events
        }
        guard let events = events?.decoded() else { throw .invalidPlan("child: a workload has neither a spec nor readable events") }
        return events
    }
}

extension ChildWorkload {
    /// How a child rebuilds `workload`: by its spec when it has one, else from its events.
    init(_ workload: LoadedWorkload) {
        self.init(spec: workload.spec, events: workload.spec == nil ? EventList(workload.workload.events) : nil)
    }
}

/// One case as a child process rebuilds it: strategy ids resolved against the child's catalogue.
struct ChildCaseSpec: Codable, Sendable {
    /// Index of the result the figures belong to.
    var key: Int
    /// Index into the request's workloads.
    var workload: Int
    var mode: CaseMode
    var window: String?
    var consumed: String?
    var parameters: CaseParameters
    /// `nil` reads as `memory`.
    var persistence: CasePersistence?

    /// The case, built from `catalogue`.
    func makeCase(_ catalogue: StrategyCatalogue) throws(HarnessError) -> _AnyCase {
        let windowEntry = try window.map { id throws(HarnessError) in
            guard let entry = catalogue.window(id) else { throw .invalidPlan("child: unknown window '\(id)'") }
            return entry
        }
        let consumedEntry = try consumed.map { id throws(HarnessError) in
            guard let entry = catalogue.consumedSet(id) else { throw .invalidPlan("child: unknown consumed set '\(id)'") }
            return entry
        }
        return catalogue.makeCase(
            window: windowEntry, consumed: consumedEntry, mode: mode, parameters: parameters, persistence: persistence ?? .memory)
    }
}

extension _Run {
    /// Case `index` as a child rebuilds it.
    func childSpec(_ index: Int) -> ChildCaseSpec {
        ChildCaseSpec(
            key: index, workload: caseWorkload[index], mode: cases[index].mode, window: cases[index].windowID,
            consumed: cases[index].consumedID, parameters: cases[index].parameters, persistence: cases[index].persistence)
    }
}
