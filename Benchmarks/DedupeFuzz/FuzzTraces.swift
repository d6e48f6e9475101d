import DedupeWorkloads
import PushDedupe

/// The traces `dedupe-fuzz` feeds `replay`: a few seed traces, each mutated one to three times with
/// the edits that broke the stages after the parser: time edges and gaps, relaunch
/// and background placement, encodings, column counts, bursts of fingerprints, long delays.
enum FuzzTraces {
    static let header = TraceFormat.header

    /// A trace as lines, with the byte-level edits applied when it is written.
    struct Draft {
        var comments: [String] = []
        var header: String? = FuzzTraces.header
        var events: [String]
        var lineEnding = "\n"
        var byteOrderMark = false
        var finalNewline = true
        var utf16 = false
        /// Bytes inserted into event line `line` at its start (after the time's first byte).
        var insertions: [(line: Int, bytes: [UInt8])] = []

        var bytes: [UInt8] {
            var lines = comments
            if let header { lines.append(header) }
            let first = lines.count
            lines += events
            var output: [UInt8] = byteOrderMark ? [0xef, 0xbb, 0xbf] : []
            for (index, line) in lines.enumerated() {
                var bytes = Array(line.utf8)
                for insertion in insertions where insertion.line + first == index {
                    bytes.insert(contentsOf: insertion.bytes, at: min(1, bytes.count))
                }
                output += bytes
                if index < lines.count - 1 || finalNewline { output += Array(lineEnding.utf8) }
            }
            guard utf16 else { return output }
            var wide: [UInt8] = [0xff, 0xfe]
            for unit in String(decoding: output, as: UTF8.self).utf16 { wide += [UInt8(unit & 0xff), UInt8(unit >> 8)] }
            return wide
        }
    }

    /// The seed traces: the replay tests' hand-written trace, the trace format guide's relaunch
    /// example, and the first events of two published scenarios.
    static let corpus: [[String]] = [
        [
            "0,payload,e1,item:1,tap,new", "5,payload,e2,item:1,cold_launch,dup", "100,emit,e1,,pending_route,dup",
            "150,emit,e2,,ready_callback,dup", "2000,emit,e1,,ready_callback,dup", "2500,payload,e3,item:2,tap,new",
            "3000,payload,e4,item:1,retap,new",
        ],
        [
            "0,payload,1b4e28ba-2fa1-41d2-883f-0016d3cca427,item:42,cold_launch,new",
            "2.5,payload,6ba7b810-9dad-41d1-80b4-00c04fd430c8,item:42,tap,dup",
            "7,emit,1b4e28ba-2fa1-41d2-883f-0016d3cca427,,pending_route,dup",
            "600000,relaunch,,,,",
            "600120,emit,1b4e28ba-2fa1-41d2-883f-0016d3cca427,,initial_notification,dup",
        ],
        scenarioLines("same-payload-twice", events: 40),
        scenarioLines("ready-callback-replay", events: 40),
    ]

    /// The first `events` event lines of a scenario's trace for seed 42 (a prefix keeps every
    /// emit after the payload that created its envelope).
    static func scenarioLines(_ id: String, events: Int) -> [String] {
        guard let scenario = ScenarioCatalogue.scenario(named: id) else { return [] }
        let text = String(decoding: TraceWriter.encode(scenario.workload(seed: 42)), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && $0 != header }
        return Array(lines.prefix(events))
    }

    /// Input `index` of the round `seed`: a seed trace, its mutations and the options.
    static func input(seed: UInt64, index: Int) -> FuzzInput {
        var random = FuzzRandom(seed: seed, index: index)
        var draft = Draft(events: random.pick(corpus))
        var names: [String] = []
        var arguments = ["replay", "@trace.csv", "--out", "@out", "--forks", "1", "--repetitions", "1", "--quiet", "--allow-debug"]
        // Half the inputs take only edits that keep a trace valid, so the stages after the parser
        // see as many inputs as the parser's refusals.
        let choices = random.chance(1, in: 2) ? mutations.filter { validKeeping.contains($0.name) } : mutations
        for _ in 0...random.below(3) {
            let mutation = random.pick(choices)
            names.append(mutation.name)
            mutation.apply(&draft, &random, &arguments)
        }
        arguments += ["--format", random.pick(["md,csv", "md,csv,json", "json", "csv,md,json,svg"])]
        if random.chance(1, in: 4) { arguments += ["--decisions", "@decisions.csv"] }
        return FuzzInput(kind: .replay, mutations: names, files: [("trace.csv", draft.bytes)], arguments: arguments)
    }

    /// The mutations after which a valid trace stays valid: times moved without reordering,
    /// relaunches placed, bursts and long delays appended, harmless encodings, edge options.
    static let validKeeping: Set<String> = [
        "time-extreme-span", "time-gap", "time-negative-shift", "time-equal", "long-emit-delay", "fingerprint-burst",
        "relaunch-insert", "relaunch-first-and-last", "payloads-only", "comments-and-blanks", "options-edge",
        "byte-order-mark", "crlf", "no-final-newline",
    ]

    struct Mutation: Sendable {
        var name: String
        var apply: @Sendable (inout Draft, inout FuzzRandom, inout [String]) -> Void
    }

    // MARK: Fields and times

    static func fields(_ line: String) -> [String] {
        line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    /// Field `index` of `line`, or empty when the line has fewer (a mutation may have cut it).
    static func field(_ line: String, _ index: Int) -> String {
        let parts = fields(line)
        return parts.indices.contains(index) ? parts[index] : ""
    }

    static func setField(_ draft: inout Draft, line: Int, field: Int, to value: String) {
        guard draft.events.indices.contains(line) else { return }
        var parts = fields(draft.events[line])
        guard parts.indices.contains(field) else { return }
        parts[field] = value
        draft.events[line] = parts.joined(separator: ",")
    }

    /// `[-]digits[.digits]` milliseconds as nanoseconds, or `nil` (also when out of range).
    static func nanoseconds(_ text: String) -> Int64? {
        let negative = text.hasPrefix("-")
        let parts = text.dropFirst(negative ? 1 : 0).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
        let fraction = parts.count == 2 ? String(parts[1].prefix(6)) : ""
        guard fraction.allSatisfy(\.isNumber) else { return nil }
        let nanos = Int64(fraction.padding(toLength: 6, withPad: "0", startingAt: 0)) ?? 0
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(nanos)
        guard !overflow, !overflow2 else { return nil }
        return negative ? -sum : sum
    }

    /// Nanoseconds as trace milliseconds (`-1.5`, `9223372036854.775807`).
    static func milliseconds(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return (nanoseconds < 0 ? "-" : "") + String(magnitude / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    static func time(_ draft: Draft, _ line: Int) -> Int64 {
        guard draft.events.indices.contains(line) else { return 0 }
        return nanoseconds(field(draft.events[line], 0)) ?? 0
    }

    static func line(_ draft: Draft, _ random: inout FuzzRandom) -> Int {
        draft.events.isEmpty ? 0 : random.below(draft.events.count)
    }

    static let dayNanoseconds: Int64 = 86_400_000_000_000

    // MARK: The mutations

    static let mutations: [Mutation] = timeMutations + placementMutations + lineMutations + fieldMutations + encodingMutations

    static let timeMutations: [Mutation] = [
        Mutation(name: "time-edge") { draft, random, _ in
            let value = random.pick(["0", "-1.5", "-9223372036854.775808", "9223372036854.775807", "9223372036854.775808", "0.0000005"])
            setField(&draft, line: line(draft, &random), field: 0, to: value)
        },
        Mutation(name: "time-extreme-span") { draft, _, _ in
            setField(&draft, line: 0, field: 0, to: "-9223372036854.775808")
            setField(&draft, line: draft.events.count - 1, field: 0, to: "9223372036854.775807")
        },
        Mutation(name: "time-gap") { draft, random, _ in
            let gap = random.pick([1_000_000_000, 107 * dayNanoseconds, Int64(1) << 62, Int64.max / 2, Int64.max])
            let start = line(draft, &random)
            for index in start..<draft.events.count {
                let (shifted, overflow) = time(draft, index).addingReportingOverflow(gap)
                setField(&draft, line: index, field: 0, to: milliseconds(overflow ? .max : shifted))
            }
        },
        Mutation(name: "time-negative-shift") { draft, random, _ in
            let shift = random.pick([1_000_000, Int64(1) << 62, Int64.max])
            for index in draft.events.indices {
                let (shifted, overflow) = time(draft, index).subtractingReportingOverflow(shift)
                setField(&draft, line: index, field: 0, to: milliseconds(overflow ? .min : shifted))
            }
        },
        Mutation(name: "time-equal") { draft, _, _ in
            let first = field(draft.events.first ?? "0", 0)
            for index in draft.events.indices { setField(&draft, line: index, field: 0, to: first) }
        },
        Mutation(name: "time-format") { draft, random, _ in
            let value = random.pick(["1e3", "+5", " 5", "nan", "inf", "0x10", "5.", ".5", "-0", "١", "", "99999999999999999999"])
            setField(&draft, line: line(draft, &random), field: 0, to: value)
        },
        Mutation(name: "long-emit-delay") { draft, random, arguments in
            // An emit 107 days after its payload: a recording spanning months, sized at the
            // documented maximum safety factor.
            guard let payload = draft.events.first(where: { field($0, 1) == "payload" }) else { return }
            let last = time(draft, draft.events.count - 1)
            let (later, overflow) = last.addingReportingOverflow(107 * dayNanoseconds)
            draft.events.append("\(milliseconds(overflow ? .max : later)),emit,\(field(payload, 2)),,pending_route,dup")
            if random.chance(1, in: 2), !arguments.contains("--safety-factor") { arguments += ["--safety-factor", "1000"] }
        },
        Mutation(name: "fingerprint-burst") { draft, random, _ in
            let count = random.pick([50, 300, 1_500])
            let start = time(draft, draft.events.count - 1)
            for index in 0..<count {
                let (at, overflow) = start.addingReportingOverflow(Int64(index) * 1_000_000 / Int64(count))
                draft.events.append("\(milliseconds(overflow ? .max : at)),payload,burst-\(index),item:\(index),tap,new")
            }
        },
    ]

    static func eventLine(_ kind: String, at time: Int64) -> String { "\(milliseconds(time)),\(kind),,,," }

    static let placementMutations: [Mutation] = ["relaunch", "background"].flatMap { kind in
        [
            Mutation(name: "\(kind)-insert") { draft, random, _ in
                let position = draft.events.isEmpty ? 0 : random.below(draft.events.count + 1)
                let at = position == 0 ? time(draft, 0) : time(draft, position - 1)
                draft.events.insert(eventLine(kind, at: at), at: position)
            },
            Mutation(name: "\(kind)-first-and-last") { draft, _, _ in
                let last = time(draft, draft.events.count - 1)
                draft.events.insert(eventLine(kind, at: time(draft, 0)), at: 0)
                draft.events.append(eventLine(kind, at: last))
            },
            Mutation(name: "\(kind)-only") { draft, _, _ in
                draft.events = draft.events.indices.map { eventLine(kind, at: time(draft, $0)) }
            },
        ]
    }

    static let lineMutations: [Mutation] = [
        Mutation(name: "columns-fewer") { draft, random, _ in
            let index = line(draft, &random)
            guard draft.events.indices.contains(index) else { return }
            draft.events[index] = fields(draft.events[index]).dropLast().joined(separator: ",")
        },
        Mutation(name: "columns-more") { draft, random, _ in
            let index = line(draft, &random)
            guard draft.events.indices.contains(index) else { return }
            draft.events[index] += random.pick([",x", ",", ",,,,,"])
        },
        Mutation(name: "line-duplicated") { draft, random, _ in
            let index = line(draft, &random)
            guard draft.events.indices.contains(index) else { return }
            draft.events.insert(draft.events[index], at: index)
        },
        Mutation(name: "line-deleted") { draft, random, _ in
            let index = line(draft, &random)
            if draft.events.indices.contains(index) { draft.events.remove(at: index) }
        },
        Mutation(name: "lines-swapped") { draft, random, _ in
            let index = line(draft, &random)
            if index + 1 < draft.events.count { draft.events.swapAt(index, index + 1) }
        },
        Mutation(name: "payloads-only") { draft, _, _ in
            draft.events = draft.events.filter { field($0, 1) == "payload" }
        },
        Mutation(name: "emits-only") { draft, _, _ in
            draft.events = draft.events.filter { field($0, 1) == "emit" }
        },
        Mutation(name: "header-edit") { draft, random, _ in
            switch random.below(4) {
            case 0: draft.header = nil
            case 1: draft.events.insert(header, at: line(draft, &random))
            case 2: draft.header = header.uppercased()
            default: draft.header = header + ",extra"
            }
        },
        Mutation(name: "header-only") { draft, _, _ in draft.events = [] },
        Mutation(name: "empty-file") { draft, _, _ in
            draft.events = []
            draft.header = nil
            draft.comments = []
        },
        Mutation(name: "comments-and-blanks") { draft, random, _ in
            draft.comments.insert(random.pick(["# a comment", "#", "# " + String(repeating: "c", count: 60_000)]), at: 0)
            draft.events.insert(random.pick(["", "# inside", "   "]), at: line(draft, &random))
        },
    ]

    static let fieldMutations: [Mutation] = [
        Mutation(name: "envelope-edit") { draft, random, _ in
            let value = random.pick([String(repeating: "e", count: 65), "e 1", "é", "", "E1", String(repeating: "f", count: 64)])
            setField(&draft, line: line(draft, &random), field: 2, to: value)
        },
        Mutation(name: "fingerprint-edit") { draft, random, _ in
            let value = random.pick([String(repeating: "r", count: 129), "item:e\u{301}🙂", "", "item:\u{1B}[2J", "item\n2", "\u{FEFF}item:1"])
            setField(&draft, line: line(draft, &random), field: 3, to: value)
        },
        Mutation(name: "source-edit") { draft, random, _ in
            let value = random.pick([String(repeating: "s", count: 129), "tab\there", "\u{7F}", "ünïcödé", String(repeating: "s", count: 128)])
            setField(&draft, line: line(draft, &random), field: 4, to: value)
        },
        Mutation(name: "kind-edit") { draft, random, _ in
            setField(&draft, line: line(draft, &random), field: 1, to: random.pick(["PAYLOAD", "emit ", "relaunch", "background", "", "payload\r"]))
        },
        Mutation(name: "truth-edit") { draft, random, _ in
            setField(&draft, line: line(draft, &random), field: 5, to: random.pick(["", "maybe", "NEW", "dup ", "new\u{0}"]))
        },
        Mutation(name: "options-edge") { _, random, arguments in
            switch random.below(4) {
            case 0: arguments += ["--window-ms", random.pick(["0", "0.001", "3600000"])]
            case 1: if !arguments.contains("--safety-factor") { arguments += ["--safety-factor", random.pick(["1", "1000"])] }
            case 2: arguments += ["--memory-budget", random.pick(["1B", "1GiB"])]
            default: arguments += ["--drop-weight", random.pick(["0", "1000000"])]
            }
        },
    ]

    static let encodingMutations: [Mutation] = [
        Mutation(name: "byte-order-mark") { draft, _, _ in draft.byteOrderMark = true },
        Mutation(name: "crlf") { draft, _, _ in draft.lineEnding = "\r\n" },
        Mutation(name: "cr-only") { draft, _, _ in draft.lineEnding = "\r" },
        Mutation(name: "no-final-newline") { draft, _, _ in draft.finalNewline = false },
        Mutation(name: "utf16") { draft, _, _ in draft.utf16 = true },
        Mutation(name: "invalid-utf8") { draft, random, _ in draft.insertions.append((line(draft, &random), [0xff, 0xfe])) },
        Mutation(name: "nul-byte") { draft, random, _ in draft.insertions.append((line(draft, &random), [0x00])) },
        Mutation(name: "long-line") { draft, random, _ in
            setField(&draft, line: line(draft, &random), field: 4, to: String(repeating: "x", count: random.pick([65_600, 200_000])))
        },
    ]
}
