import DedupeMeasurement
import DedupeStoreLab
import DedupeLifecycle
import DedupeWorkloads

/// How `results.json` is written and read (schema 5): each strategy's metadata once, in
/// `strategies`; each case with its `case` id (which names its workload, mode, strategies,
/// identity and persistence) and its measurements; nothing that can be derived
/// (the reference of each case, the ratios to it from both cases' samples, median, minimum and
/// spread from the samples, Wilson intervals from counts, sign tests from matched counts, and the
/// parameters when they are the run's sizing). Reading derives them again, so a decoded file
/// equals the results that were written, and checks that every case's `case` id is the one its
/// fields give and appears once.

/// The layer a strategy fills: the fingerprint window or the consumed set.
package enum StrategyLayer: String, Codable, Sendable, Hashable, ClosedVocabulary {
    case window
    case consumed

    package static let vocabularyName = "layer"
}

/// One strategy as the results describe it, once per layer and catalogue id.
package struct StrategyInfo: Codable, Sendable, Equatable {
    package var layer: StrategyLayer
    package var id: String
    /// The Swift type the entry registers (`FIFOSet`).
    package var type: String?
    package var guarantee: GuaranteeRecord?
    package var reads: [StrategyParameter]
}

/// A results file of a schema this build does not read.
package struct UnsupportedSchemaVersion: Error, Equatable {
    package var version: Int
}

extension RunResults: Codable {
    enum CodingKeys: String, CodingKey {
        case schemaVersion, environment, settings, strategies, cases, sweeps, policies, deviceProfile, workloads, stores, routerLatencySweep
    }

    /// The metadata of every strategy the cases name, in first-seen order.
    package var strategies: [StrategyInfo] {
        var seen: Set<String> = []
        var infos: [StrategyInfo] = []
        for result in cases {
            for info in [result.windowInfo, result.consumedInfo].compactMap({ $0 }) where seen.insert(info.layer.rawValue + "/" + info.id).inserted {
                infos.append(info)
            }
        }
        return infos
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(environment, forKey: .environment)
        try container.encode(settings, forKey: .settings)
        try container.encode(strategies, forKey: .strategies)
        var casesContainer = container.nestedUnkeyedContainer(forKey: .cases)
        let defaults = defaultParameters
        for result in cases { try casesContainer.encode(CaseResult.Encoded(result, defaults: defaults)) }
        try container.encode(sweeps, forKey: .sweeps)
        try container.encodeIfPresent(policies, forKey: .policies)
        try container.encodeIfPresent(deviceProfile, forKey: .deviceProfile)
        try container.encodeIfPresent(workloads, forKey: .workloads)
        try container.encodeIfPresent(stores, forKey: .stores)
        try container.encodeIfPresent(routerLatencySweep, forKey: .routerLatencySweep)
    }

    /// Reads `schemaVersion` first, and nothing more of a file of another schema
    /// (``UnsupportedSchemaVersion``): one pass over the document decides both.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        guard schemaVersion == Self.currentSchemaVersion else { throw UnsupportedSchemaVersion(version: schemaVersion) }
        environment = try container.decode(EnvironmentInfo.self, forKey: .environment)
        settings = try container.decode(RunSettings.self, forKey: .settings)
        sweeps = try container.decode([SweepPoint].self, forKey: .sweeps)
        policies = try container.decodeIfPresent(PolicyResults.self, forKey: .policies)
        deviceProfile = try container.decodeIfPresent(DeviceProfile.self, forKey: .deviceProfile)
        workloads = try container.decodeIfPresent([WorkloadInfo].self, forKey: .workloads)
        stores = try container.decodeIfPresent(StoreResults.self, forKey: .stores)
        routerLatencySweep = try container.decodeIfPresent(RouterLatencySweep.self, forKey: .routerLatencySweep)
        cases = []
        let defaults = defaultParameters
        var casesContainer = try container.nestedUnkeyedContainer(forKey: .cases)
        while !casesContainer.isAtEnd {
            var encoded = try casesContainer.decode(CaseResult.Encoded.self)
            encoded.id = StrategyCatalogue.currentCaseID(encoded.id)
            guard let fields = CaseResult.Encoded.parse(encoded.id) else {
                throw Self.caseError(
                    at: cases.count, in: container,
                    "case '\(encoded.id)' is not WORKLOAD/MODE/STRATEGIES[/IDENTITY/PERSISTENCE] with a known mode, one strategy per layer it uses, and an identity and persistence exactly when it uses a consumed set")
            }
            guard let parameters = encoded.parameters ?? CaseResult.Encoded.defaults(defaults, window: fields.window) else {
                throw Self.caseError(at: cases.count, in: container, "no parameters, and no device profile to default them from")
            }
            cases.append(encoded.result(fields, parameters: parameters))
        }
        let strategies = try container.decode([StrategyInfo].self, forKey: .strategies).map { info in
            var info = info
            info.id = StrategyCatalogue.formerIDs[info.id] ?? info.id
            return info
        }
        var byKey: [String: StrategyInfo] = [:]
        for info in strategies { byKey[info.layer.rawValue + "/" + info.id] = info }
        var byID: [String: Int] = [:]
        for index in cases.indices {
            func info(_ layer: StrategyLayer, _ id: String?) throws -> StrategyInfo? {
                guard let id else { return nil }
                guard let info = byKey[layer.rawValue + "/" + id] else {
                    throw Self.caseError(at: index, in: container, "\(layer.rawValue) '\(id)' is not in strategies")
                }
                return info
            }
            let window = try info(.window, cases[index].window)
            let consumed = try info(.consumed, cases[index].consumed)
            cases[index].windowGuarantee = window?.guarantee
            cases[index].windowReads = window?.reads
            cases[index].windowType = window?.type
            cases[index].consumedGuarantee = consumed?.guarantee
            cases[index].consumedReads = consumed?.reads
            cases[index].consumedType = consumed?.type
            let id = cases[index].id.text
            if let stored = cases[index].storedID, stored != id {
                throw Self.caseError(at: index, in: container, "case '\(stored)' does not match its fields (\(id))")
            }
            cases[index].storedID = nil
            if byID.updateValue(index, forKey: id) != nil {
                throw Self.caseError(at: index, in: container, "case '\(id)' appears twice")
            }
        }
        // Each case's reference is its mode's on its workload (matched errors: the published code,
        // of `CaseMode.matchedWith` when that ran; ratios: the run's timing reference); ratios
        // come from both samples.
        var references: [String: Int] = [:]
        var timingReferences: [String: Int] = [:]
        for index in cases.indices {
            let key = cases[index].workload + "/" + cases[index].mode.rawValue
            if cases[index].isReference { references[key] = index }
            if cases[index].isTimingReference(settings.reference) { timingReferences[key] = index }
        }
        for index in cases.indices {
            let key = cases[index].workload + "/" + cases[index].mode.rawValue
            let matchedKey = cases[index].workload + "/" + cases[index].mode.matchedWith.rawValue
            if let referenceIndex = references[matchedKey] ?? references[key] {
                let label = cases[referenceIndex].id.text
                cases[index].correctness?.matched?.reference = label
            }
            guard let referenceIndex = timingReferences[key] else { continue }
            let reference = cases[referenceIndex]
            guard cases[index].timing != nil, let referenceSamples = reference.timing?.samplesNanosecondsPerEvent else { continue }
            // Pairs up to the shorter list: a hand-edited file whose counts differ keeps fewer
            // ratios than samples, which `compare` names.
            cases[index].timing!.reference = reference.id.text
            cases[index].timing!.setRatios(zip(cases[index].timing!.samplesNanosecondsPerEvent, referenceSamples).map { $0 / $1 })
        }
    }

    /// A decoding error at `cases[index]`, so a message names the case's position.
    static func caseError(at index: Int, in container: KeyedDecodingContainer<CodingKeys>, _ description: String) -> DecodingError {
        struct Index: CodingKey {
            var intValue: Int?
            var stringValue: String { "Index \(intValue ?? 0)" }
            init(_ index: Int) { intValue = index }
            init?(stringValue: String) { nil }
            init?(intValue: Int) { self.intValue = intValue }
        }
        return .dataCorrupted(.init(codingPath: container.codingPath + [CodingKeys.cases, Index(index)], debugDescription: description))
    }

    /// The parameters every case not pinned by its catalogue entry was built with: the profile's
    /// sizing at the run's window.
    var defaultParameters: CaseParameters? {
        guard let sizing = deviceProfile?.sizing else { return nil }
        var parameters = CaseParameters(
            windowMilliseconds: settings.windowMilliseconds, windowCapacity: sizing.windowCapacity,
            consumedCapacity: sizing.consumedCapacity, falsePositiveRate: sizing.falsePositiveRate,
            retentionMilliseconds: sizing.retentionMilliseconds)
        parameters.expectedRatePerSecond = sizing.expectedRatePerSecond
        return parameters
    }
}

extension CaseResult {
    /// Whether the case runs the published strategies of its mode at the published code's
    /// identity and persistence: the reference its mode's ratios and matched errors are against.
    package var isReference: Bool {
        window == (mode.usesWindow ? StrategyCatalogue.referenceWindowID : nil)
            && consumed == (mode.usesConsumedSet ? StrategyCatalogue.referenceConsumedSetID : nil) && choice.isBase
    }
}

extension CaseResult {
    /// The layers' metadata as the results file stores it.
    var windowInfo: StrategyInfo? {
        window.map { StrategyInfo(layer: .window, id: $0, type: windowType, guarantee: windowGuarantee, reads: windowReads ?? []) }
    }

    var consumedInfo: StrategyInfo? {
        consumed.map {
            StrategyInfo(layer: .consumed, id: $0, type: consumedType, guarantee: consumedGuarantee, reads: consumedReads ?? [])
        }
    }

    /// A case as the file holds it: its `case` id, which names the workload, mode, strategies,
    /// identity and persistence (read back by ``parse(_:)``), and `parameters` only when they
    /// differ from the run's sizing.
    struct Encoded: Codable {
        var id: String
        var parameters: CaseParameters?
        var timing: TimingResult?
        var memory: MemoryResult?
        var correctness: CorrectnessResult?
        var snapshot: SnapshotResult?

        enum CodingKeys: String, CodingKey {
            case id = "case"
            case parameters, timing, memory, correctness, snapshot
        }

        init(_ result: CaseResult, defaults: CaseParameters?) {
            id = result.id.text
            parameters = result.parameters == Self.defaults(defaults, window: result.window) ? nil : result.parameters
            timing = result.timing
            memory = result.memory
            correctness = result.correctness
            snapshot = result.snapshot
        }

        /// The run's sizing as a case of `window` is built with: a case without a window has no
        /// window capacity (`_Run.parameters`).
        static func defaults(_ defaults: CaseParameters?, window: String?) -> CaseParameters? {
            guard var parameters = defaults else { return nil }
            if window == nil { parameters.windowCapacity = 0 }
            return parameters
        }

        /// The fields a case id names: `WORKLOAD/MODE/STRATEGIES[/IDENTITY/PERSISTENCE]`, read
        /// from the right, so a workload (a trace's file name) may hold a `/`. The strategies'
        /// parameters are not read back: decoding rebuilds the id from `parameters` and each
        /// strategy's reads, and refuses a file where the two differ.
        struct Fields {
            var workload: String
            var mode: CaseMode
            var window: String?
            var consumed: String?
            var identity: EnvelopeIdentity?
            var persistence: Persistence?
            /// The id as this build spells it: a former persistence name read as the current one.
            var currentID: String
        }

        static func parse(_ id: String) -> Fields? {
            var parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var identity: EnvelopeIdentity?
            var persistence: Persistence?
            var currentID = id
            if parts.count >= 5, let last = Persistence(reading: parts[parts.count - 1]),
                let previous = EnvelopeIdentity(rawValue: parts[parts.count - 2]) {
                persistence = last
                identity = previous
                currentID = (parts.dropLast() + [last.rawValue]).joined(separator: "/")
                parts.removeLast(2)
            }
            guard parts.count >= 3, let mode = CaseMode(rawValue: parts[parts.count - 2]),
                mode.usesConsumedSet == (identity != nil) else { return nil }
            let layers = strategyIDs(parts[parts.count - 1])
            let expected = (mode.usesWindow ? 1 : 0) + (mode.usesConsumedSet ? 1 : 0)
            // A two-layer case names one strategy when it runs a team's whole pipeline.
            let wholePipeline = expected == 2 && layers.count == 1
            guard layers.count == expected || wholePipeline, layers.allSatisfy({ !$0.isEmpty }) else { return nil }
            return Fields(
                workload: parts[..<(parts.count - 2)].joined(separator: "/"), mode: mode,
                window: mode.usesWindow ? layers[0] : nil,
                consumed: mode.usesConsumedSet && !wholePipeline ? layers[layers.count - 1] : nil,
                identity: identity, persistence: persistence, currentID: currentID)
        }

        /// `hash-deque(window=500ms;reserve=4)+fifo-set(capacity=1750)` → the two catalogue ids;
        /// a `+` inside parentheses (an exponent) does not split.
        private static func strategyIDs(_ text: String) -> [String] {
            var ids: [String] = []
            var current = ""
            var depth = 0
            for character in text {
                switch character {
                case "(": depth += 1
                case ")": depth -= 1
                case "+" where depth == 0:
                    ids.append(current)
                    current = ""
                    continue
                default: if depth == 0 { current.append(character) }
                }
            }
            ids.append(current)
            return ids
        }

        func result(_ fields: Fields, parameters: CaseParameters) -> CaseResult {
            var result = CaseResult(
                workload: fields.workload, mode: fields.mode, window: fields.window, consumed: fields.consumed,
                parameters: parameters, timing: timing, memory: memory, correctness: correctness,
                identity: fields.identity, persistence: fields.persistence)
            result.snapshot = snapshot
            result.storedID = fields.currentID
            return result
        }
    }
}

extension TimingResult: Codable {
    enum CodingKeys: String, CodingKey {
        case samplesNanosecondsPerEvent, latencyNanoseconds, timedEvents, forks
    }

    /// Sets the per-repetition ratios and their median and spread.
    mutating func setRatios(_ ratios: [Double]) {
        ratiosToReference = ratios
        ratioToReferenceMedian = ratios.isEmpty ? nil : SampleStatistics.median(ratios)
        ratioToReferenceSpread = ratios.isEmpty ? nil : SampleStatistics.spread(ratios)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(samplesNanosecondsPerEvent, forKey: .samplesNanosecondsPerEvent)
        try container.encode(
            [latencyP50Nanoseconds, latencyP90Nanoseconds, latencyP99Nanoseconds, latencyP999Nanoseconds],
            forKey: .latencyNanoseconds)
        try container.encodeIfPresent(timedEvents, forKey: .timedEvents)
        try container.encodeIfPresent(forks, forKey: .forks)
    }

    /// Median, minimum, spread and events per second are derived from the samples, as
    /// ``init(samples:batches:ratios:timedEvents:reference:)`` derived them; the ratios and the
    /// reference are set by ``RunResults``'s decoding, which knows the reference case.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let samples = try container.decode([Double].self, forKey: .samplesNanosecondsPerEvent)
        let median = SampleStatistics.median(samples) ?? 0
        let latency = try container.decode([Double].self, forKey: .latencyNanoseconds)
        guard latency.count == 4 else {
            throw DecodingError.dataCorruptedError(
                forKey: .latencyNanoseconds, in: container, debugDescription: "expected 4 percentiles (p50, p90, p99, p99.9)")
        }
        self.init(
            samplesNanosecondsPerEvent: samples, medianNanosecondsPerEvent: median, minNanosecondsPerEvent: samples.min() ?? 0,
            spreadNanosecondsPerEvent: SampleStatistics.spread(samples), eventsPerSecond: median > 0 ? 1e9 / median : 0,
            latencyP50Nanoseconds: latency[0], latencyP90Nanoseconds: latency[1], latencyP99Nanoseconds: latency[2],
            latencyP999Nanoseconds: latency[3],
            ratiosToReference: [])
        timedEvents = try container.decodeIfPresent(Int.self, forKey: .timedEvents)
        forks = try container.decodeIfPresent(Int.self, forKey: .forks)
    }
}

/// A memory result as one array, in the order of ``fieldNames`` (`Guides/Results.md` §
/// MemoryResult): the keys of 860 objects were most of what the memory figures cost the file.
extension MemoryResult: Codable {
    static let fieldNames = [
        "source", "liveBytes", "peakBytes", "bytesPerEntry", "allocationsPerEvent", "footprintBytes", "retainedEntries",
        "liveBytesGrowthInLastTenth", "footprintGrowthInLastTenth",
    ]

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(source)
        try container.encode(liveBytes)
        try container.encode(peakBytes)
        try container.encode(bytesPerEntry)
        try container.encode(allocationsPerEvent)
        try container.encode(footprintBytes)
        try container.encode(retainedEntries)
        try container.encode(liveBytesGrowthInLastTenth)
        try container.encode(footprintGrowthInLastTenth)
    }

    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == Self.fieldNames.count else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected \(Self.fieldNames.count) values (\(Self.fieldNames.joined(separator: ", ")); null when not measured)"))
        }
        self.init(
            source: try container.decode(String.self), liveBytes: try container.decodeIfPresent(Int.self),
            peakBytes: try container.decodeIfPresent(Int.self), bytesPerEntry: try container.decodeIfPresent(Double.self),
            allocationsPerEvent: try container.decodeIfPresent(Double.self), footprintBytes: try container.decode(Int.self),
            retainedEntries: try container.decode(Int.self))
        liveBytesGrowthInLastTenth = try container.decodeIfPresent(Double.self)
        footprintGrowthInLastTenth = try container.decodeIfPresent(Double.self)
    }
}

extension CorrectnessResult: Codable {
    enum CodingKeys: String, CodingKey {
        case counts, theoreticalFalsePositiveRate, measuredFalsePositiveRate, matched, missedByCause, droppedByCause
    }

    /// The order of `counts` in the file (`Guides/Results.md` § CorrectnessResult).
    static let countNames = [
        "events", "newEvents", "dupEvents", "falseDrops", "missedDuplicates", "skippedEmits", "duplicateScreens",
        "lostNavigations", "suppressedByWindow", "suppressedByConsumedSet", "suppressedByGuard", "windowEvictions",
        "consumedEvictions",
    ]

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            [events, newEvents, dupEvents, falseDrops, missedDuplicates, skippedEmits, duplicateScreens, lostNavigations,
             suppressedByWindow, suppressedByConsumedSet, suppressedByGuard, windowEvictions, consumedEvictions],
            forKey: .counts)
        try container.encodeIfPresent(theoreticalFalsePositiveRate, forKey: .theoreticalFalsePositiveRate)
        try container.encodeIfPresent(measuredFalsePositiveRate, forKey: .measuredFalsePositiveRate)
        try container.encodeIfPresent(matched, forKey: .matched)
        if !missedByCause.isEmpty { try container.encode(missedByCause, forKey: .missedByCause) }
        if !droppedByCause.isEmpty { try container.encode(droppedByCause, forKey: .droppedByCause) }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let c = try container.decode([Int].self, forKey: .counts)
        guard c.count == Self.countNames.count, c.allSatisfy({ $0 >= 0 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .counts, in: container,
                debugDescription: "expected \(Self.countNames.count) non-negative counts (\(Self.countNames.joined(separator: ", ")))")
        }
        self.init(
            events: c[0], newEvents: c[1], dupEvents: c[2], falseDrops: c[3], missedDuplicates: c[4], skippedEmits: c[5],
            duplicateScreens: c[6], lostNavigations: c[7], falseDropRate: Rate(wilson: c[3], of: c[1]),
            missedDuplicateRate: Rate(wilson: c[4], of: c[2]), suppressedByWindow: c[8], suppressedByConsumedSet: c[9],
            suppressedByGuard: c[10], windowEvictions: c[11], consumedEvictions: c[12],
            theoreticalFalsePositiveRate: try container.decodeIfPresent(Double.self, forKey: .theoreticalFalsePositiveRate),
            measuredFalsePositiveRate: try container.decodeIfPresent(Double.self, forKey: .measuredFalsePositiveRate))
        matched = try container.decodeIfPresent(MatchedErrors.self, forKey: .matched)
        missedByCause = try container.decodeIfPresent([String: Int].self, forKey: .missedByCause) ?? [:]
        droppedByCause = try container.decodeIfPresent([String: Int].self, forKey: .droppedByCause) ?? [:]
    }
}

extension MatchedErrors: Codable {
    enum CodingKeys: String, CodingKey {
        case newlyDropped, newlyMissed, recoveredNavigations, newlyBlockedDuplicates, newlySuppressedUnlabelled
        case newlyNavigatedUnlabelled
    }

    /// The reference is set by ``RunResults``'s decoding, which knows the reference case. A
    /// count of zero is left out (most cases agree with their reference event by event).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if newlyDropped > 0 { try container.encode(newlyDropped, forKey: .newlyDropped) }
        if newlyMissed > 0 { try container.encode(newlyMissed, forKey: .newlyMissed) }
        if recoveredNavigations > 0 { try container.encode(recoveredNavigations, forKey: .recoveredNavigations) }
        if newlyBlockedDuplicates > 0 { try container.encode(newlyBlockedDuplicates, forKey: .newlyBlockedDuplicates) }
        if newlySuppressedUnlabelled > 0 { try container.encode(newlySuppressedUnlabelled, forKey: .newlySuppressedUnlabelled) }
        if newlyNavigatedUnlabelled > 0 { try container.encode(newlyNavigatedUnlabelled, forKey: .newlyNavigatedUnlabelled) }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            reference: "",
            newlyDropped: try container.decodeIfPresent(Int.self, forKey: .newlyDropped) ?? 0,
            newlyMissed: try container.decodeIfPresent(Int.self, forKey: .newlyMissed) ?? 0,
            recoveredNavigations: try container.decodeIfPresent(Int.self, forKey: .recoveredNavigations) ?? 0,
            newlyBlockedDuplicates: try container.decodeIfPresent(Int.self, forKey: .newlyBlockedDuplicates) ?? 0)
        newlySuppressedUnlabelled = try container.decodeIfPresent(Int.self, forKey: .newlySuppressedUnlabelled) ?? 0
        newlyNavigatedUnlabelled = try container.decodeIfPresent(Int.self, forKey: .newlyNavigatedUnlabelled) ?? 0
    }
}
