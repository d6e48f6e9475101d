import DedupeStoreLab
import DedupeHarness
import DedupeReports
import Foundation

/// The results files `dedupe-fuzz` feeds `compare`: a real results file made once per round, with
/// its measured figures replaced by seeded ones so the inputs are the same on every machine,
/// then mutated as a JSON tree or as text: emptied and duplicated fields, fork counts, numbers
/// outside their type, type changes, names with control characters, a 100 KB `cpuModel`,
/// duplicated keys, truncation, encodings.
enum FuzzResults {
    /// `results` with every figure that depends on the machine or the moment (timings, memory,
    /// the environment) replaced by a value derived from the case's name alone. Correctness,
    /// the profile and the workloads are fixed by the trace already.
    static func normalized(_ results: RunResults) -> RunResults {
        var results = results
        results.environment = EnvironmentInfo(
            toolchain: "fuzz", operatingSystem: "fuzz", cpuModel: "fuzz", coreCount: 2, allocator: "fuzz",
            seed: results.environment.seed, gitCommit: "fuzz", date: "2000-01-01T00:00:00Z", buildConfiguration: .release,
            clockResolutionNanoseconds: 1, harnessOverheadNanosecondsPerEvent: 1)
        results.settings.forksInChildProcesses = true
        for index in results.cases.indices {
            let result = results.cases[index]
            var digest = FuzzDigest()
            digest.add(result.id.text)
            var random = FuzzRandom(seed: digest.value, index: index)
            if var timing = result.timing {
                let isReference = !timing.ratiosToReference.isEmpty && timing.ratiosToReference.allSatisfy { $0 == 1 }
                let base = 10 + Double(random.below(90))
                let ratio = isReference ? 1 : 0.5 + Double(random.below(100)) / 50
                let noise = { (random: inout FuzzRandom) in 1 + Double(random.below(201) - 100) / 10_000 }
                let samples = timing.samplesNanosecondsPerEvent.indices.map { _ in base * noise(&random) }
                timing.samplesNanosecondsPerEvent = samples
                timing.ratiosToReference = timing.ratiosToReference.map { _ in isReference ? 1 : ratio * noise(&random) }
                let sorted = samples.sorted()
                let median = sorted.isEmpty ? base : sorted[sorted.count / 2]
                timing.medianNanosecondsPerEvent = median
                timing.minNanosecondsPerEvent = sorted.first ?? base
                timing.spreadNanosecondsPerEvent = (sorted.last ?? base) - (sorted.first ?? base)
                timing.eventsPerSecond = 1e9 / median
                timing.latencyP50Nanoseconds = median
                timing.latencyP90Nanoseconds = median
                timing.latencyP99Nanoseconds = median
                timing.latencyP999Nanoseconds = median
                timing.ratioToReferenceMedian = nil
                timing.ratioToReferenceSpread = nil
                results.cases[index].timing = timing
            }
            if var memory = result.memory {
                memory.source = "fuzz"
                memory.liveBytes = memory.footprintBytes
                memory.peakBytes = memory.footprintBytes
                memory.bytesPerEntry = memory.retainedEntries > 0 ? Double(memory.footprintBytes) / Double(memory.retainedEntries) : nil
                memory.allocationsPerEvent = 0
                memory.liveBytesGrowthInLastTenth = 0
                memory.footprintGrowthInLastTenth = 0
                results.cases[index].memory = memory
            }
            if var snapshot = result.snapshot {
                snapshot.meanSnapshotNanoseconds = 100
                snapshot.meanRestoreNanoseconds = 100
                results.cases[index].snapshot = snapshot
            }
        }
        // What a store measured depends on the machine and on how far a child got before its kill.
        results.stores = results.stores.map { stores in
            var stores = stores
            func fixed(_ cost: StoreCost) -> StoreCost {
                var cost = cost
                (cost.consumes, cost.compactions, cost.folderBytes, cost.bytesPerConsume) = (1_000, 1, 4_096, 24)
                (cost.medianNanoseconds, cost.p99Nanoseconds, cost.maxNanoseconds, cost.meanNanoseconds) = (300, 500, 900, 350)
                cost.restoreMicroseconds = cost.restoreMicroseconds.map { _ in 100 }
                return cost
            }
            stores.costs = stores.costs.map(fixed)
            stores.sweep = stores.sweep.map(fixed)
            stores.kills = stores.kills.map { kill in
                var kill = kill
                (kill.acknowledged, kill.repairs, kill.tornTailsCut) = (kill.killPoints, 0, 0)
                return kill
            }
            return stores
        }
        return results
    }

    /// `data` (a normalized results file) as the tree ``input(seed:index:base:)`` mutates.
    static func tree(_ data: Data) -> Any {
        (try? JSONSerialization.jsonObject(with: data)) ?? [String: Any]()
    }

    /// Input `index` of the round `seed`, mutated from `base` (a ``tree(_:)``).
    static func input(seed: UInt64, index: Int, base: Any) -> FuzzInput {
        var random = FuzzRandom(seed: seed, index: index)
        var sides = [Side(tree: base), Side(tree: base)]
        var names: [String] = []
        // Half the inputs take only edits a valid file survives, so the gate itself runs often.
        let choices = random.chance(1, in: 2) ? mutations.filter { validKeeping.contains($0.name) } : mutations
        for _ in 0...random.below(2) {
            let mutation = random.pick(choices)
            let chosen = mutation.currentOnly ? [1] : random.pick([[0], [1], [0, 1]])
            names.append(mutation.name + (chosen == [0] ? " (baseline)" : chosen == [1] ? " (current)" : " (both)"))
            // One draw for both sides, so "both" gets the same edit twice.
            let draw = random.next()
            for side in chosen {
                var sideRandom = FuzzRandom(seed: draw, index: 0)
                mutation.apply(&sides[side], &sideRandom)
            }
        }
        var arguments = ["compare", "@baseline.json", "@current.json", "--out", "@table.tsv"]
        if random.chance(1, in: 3) {
            arguments += random.pick([["--threshold", "0"], ["--alpha", "0.49"], ["--correction", "bh"], ["--top", "1"], ["--threshold", "1000"]])
        }
        return FuzzInput(
            kind: .compare, mutations: names, files: [("baseline.json", sides[0].bytes), ("current.json", sides[1].bytes)],
            arguments: arguments)
    }

    // MARK: Mutations

    /// One results file being mutated: a JSON tree, then text edits on its serialization.
    struct Side {
        var tree: Any
        var textEdits: [@Sendable ([UInt8]) -> [UInt8]] = []

        /// Serialized compactly with sorted keys (``FuzzResults/json(_:into:)``), then the text edits.
        var bytes: [UInt8] {
            var bytes: [UInt8] = []
            FuzzResults.json(tree, into: &bytes)
            return textEdits.reduce(bytes) { $1($0) }
        }
    }

    /// The mutations a valid pair of files survives: a change of speed, names with control
    /// characters, a long CPU name, a duplicated key that repeats the same value.
    static let validKeeping: Set<String> = ["scaled", "names-with-controls", "cpu-huge", "byte-order-mark", "duplicate-key"]

    struct Mutation: Sendable {
        var name: String
        /// Applied to the current file only (a change the gate should see as a regression).
        var currentOnly = false
        var apply: @Sendable (inout Side, inout FuzzRandom) -> Void
    }

    /// `value` as compact JSON with sorted keys: the same bytes for the same tree on every
    /// machine (Swift's shortest round-trip form for doubles), a placeholder string as its number
    /// literal. `JSONSerialization`'s writer is a hundred times slower and would dominate a round.
    static func json(_ value: Any, into output: inout [UInt8]) {
        switch value {
        case let object as [String: Any]:
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                json(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                json(member.value, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        case let array as [Any]:
            output.append(UInt8(ascii: "["))
            for (position, element) in array.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                json(element, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case let text as String:
            if text.hasPrefix("__fuzz_number_"), let literal = literals.first(where: { placeholder($0) == text }) {
                output += Array(literal.utf8)
                return
            }
            output.append(UInt8(ascii: "\""))
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += Array("\\\"".utf8)
                case "\\": output += Array("\\\\".utf8)
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    output += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: output += Array(String(scalar).utf8)
                }
            }
            output.append(UInt8(ascii: "\""))
        case is NSNull:
            output += Array("null".utf8)
        case let number as NSNumber where !isNumber(number):
            output += Array((number.boolValue ? "true" : "false").utf8)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            output += Array((type == "d" || type == "f" ? "\(number.doubleValue)" : number.description).utf8)
        case let flag as Bool:
            output += Array((flag ? "true" : "false").utf8)
        case let integer as Int:
            output += Array(String(integer).utf8)
        case let double as Double:
            output += Array("\(double)".utf8)
        default:
            output += Array("null".utf8)
        }
    }

    /// Number literals no `JSONSerialization` tree can carry, written in through a placeholder.
    static let literals = ["1e999", "-1e999", "18446744073709551616", "9223372036854775808", "1.0e-400"]

    static func placeholder(_ literal: String) -> String { "__fuzz_number_\(literal)__" }

    /// A position in a JSON tree: an object key or an array index.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// Every path to a value in `tree`, objects' keys in sorted order; `leaves` keeps only
    /// numbers, strings, booleans and nulls.
    static func paths(in tree: Any, leaves: Bool) -> [[Step]] {
        var found: [[Step]] = []
        func walk(_ value: Any, _ path: [Step]) {
            switch value {
            case let object as [String: Any]:
                if !leaves { found.append(path) }
                for (key, member) in object.sorted(by: { $0.key < $1.key }) { walk(member, path + [.key(key)]) }
            case let array as [Any]:
                if !leaves { found.append(path) }
                for (index, element) in array.enumerated() { walk(element, path + [.index(index)]) }
            default:
                if leaves { found.append(path) }
            }
        }
        walk(tree, [])
        return found
    }

    /// `tree` with the value at `path` replaced by `change(old)`, or removed when it returns `nil`.
    static func updated(_ tree: Any, at path: ArraySlice<Step>, _ change: (Any) -> Any?) -> Any? {
        guard let step = path.first else { return change(tree) }
        switch (step, tree) {
        case (.key(let key), var object as [String: Any]):
            guard let child = object[key] else { return object }
            object[key] = updated(child, at: path.dropFirst(), change)
            return object
        case (.index(let index), var array as [Any]) where array.indices.contains(index):
            if let value = updated(array[index], at: path.dropFirst(), change) { array[index] = value } else { array.remove(at: index) }
            return array
        default:
            return tree
        }
    }

    static func update(_ side: inout Side, _ path: [Step], _ change: (Any) -> Any?) {
        side.tree = updated(side.tree, at: path[...], change) ?? side.tree
    }

    /// Indices of the cases with timing.
    static func timedCases(_ side: Side) -> [Int] {
        let cases = ((side.tree as? [String: Any])?["cases"] as? [Any]) ?? []
        return cases.indices.filter { ((cases[$0] as? [String: Any])?["timing"]) != nil }
    }

    /// Applies `change` to every case.
    static func everyCase(_ side: inout Side, _ change: @escaping ([String: Any]) -> [String: Any]) {
        update(&side, [.key("cases")]) { value in (value as? [Any])?.map { ($0 as? [String: Any]).map(change) ?? $0 } ?? value }
    }

    static func timing(_ side: inout Side, case index: Int, key: String, _ value: Any) {
        update(&side, [.key("cases"), .index(index), .key("timing"), .key(key)]) { _ in value }
    }

    static var oddNumbers: [Any] { [-1, 0, -0.0, 1e308, Double.leastNonzeroMagnitude, 9_007_199_254_740_993, 0.5] + literals.map(placeholder) }
    static var otherTypes: [Any] { ["6", true, NSNull(), [Any](), [String: Any](), "", 2] }

    /// The value at `path` in `tree`, or `nil`.
    static func value(in tree: Any, at path: [Step]) -> Any? {
        var value: Any? = tree
        for step in path {
            switch step {
            case .key(let key): value = (value as? [String: Any])?[key]
            case .index(let index): value = (value as? [Any]).flatMap { $0.indices.contains(index) ? $0[index] : nil }
            }
        }
        return value
    }

    /// A JSON number (`JSONSerialization` makes booleans `NSNumber`s of type `c`).
    static func isNumber(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) != "c"
    }

    static let mutations: [Mutation] = [
        Mutation(name: "ratios-emptied") { side, _ in
            everyCase(&side) { result in
                var result = result
                if var timing = result["timing"] as? [String: Any] { timing["ratiosToReference"] = [Any](); result["timing"] = timing }
                return result
            }
        },
        Mutation(name: "samples-emptied") { side, random in
            guard let index = random.element(of: timedCases(side)) else { return }
            timing(&side, case: index, key: "samplesNanosecondsPerEvent", [Any]())
        },
        Mutation(name: "cases-emptied") { side, _ in update(&side, [.key("cases")]) { _ in [Any]() } },
        Mutation(name: "case-duplicated") { side, random in
            guard let index = random.element(of: timedCases(side)) else { return }
            let atEnd = random.chance(1, in: 2)
            update(&side, [.key("cases")]) { value in
                guard var cases = value as? [Any] else { return value }
                cases.insert(cases[index], at: atEnd ? cases.count : 0)
                return cases
            }
        },
        Mutation(name: "forks-edit") { side, random in
            let value = random.pick([0, -1, 1, 2, 65, 1_000] as [Any] + [placeholder("9223372036854775808")])
            update(&side, [.key("settings"), .key("forks")]) { _ in value }
        },
        Mutation(name: "case-forks-edit") { side, random in
            guard let index = random.element(of: timedCases(side)) else { return }
            timing(&side, case: index, key: "forks", random.pick([0, -3, 7, 1] as [Any]))
        },
        Mutation(name: "seed-edit") { side, random in
            let value = random.pick([-1, 1.5, "42"] as [Any] + [placeholder("18446744073709551616")])
            update(&side, [.key("environment"), .key("seed")]) { _ in value }
        },
        Mutation(name: "number-edit") { side, random in
            let numbers = paths(in: side.tree, leaves: true).filter { isNumber(value(in: side.tree, at: $0)) }
            guard let path = random.element(of: numbers) else { return }
            let odd = random.pick(oddNumbers)
            update(&side, path) { _ in odd }
        },
        Mutation(name: "type-edit") { side, random in
            guard let path = random.element(of: paths(in: side.tree, leaves: true)) else { return }
            let value = random.pick(otherTypes)
            update(&side, path) { _ in value }
        },
        Mutation(name: "key-removed") { side, random in
            let keyed = paths(in: side.tree, leaves: false).filter { path in
                guard case .key? = path.last else { return false }
                return true
            }
            guard let path = random.element(of: keyed) else { return }
            update(&side, path) { _ in nil }
        },
        Mutation(name: "object-emptied") { side, random in
            guard let path = random.element(of: paths(in: side.tree, leaves: false)) else { return }
            update(&side, path) { value -> Any in value is [Any] ? [Any]() as Any : [String: Any]() as Any }
        },
        Mutation(name: "cpu-huge") { side, _ in
            update(&side, [.key("environment"), .key("cpuModel")]) { _ in "CPU\n\u{1B}[2J" + String(repeating: "x", count: 100_000) }
        },
        // A workload is the one name a case id takes from outside (a trace's file name).
        Mutation(name: "names-with-controls") { side, random in
            let suffix = random.pick(["\n", "\t", "\u{1B}[31m", "|`*", "\r\n", String(repeating: "n", count: 5_000)])
            everyCase(&side) { result in
                var result = result
                if let id = result["case"] as? String, let slash = id.firstIndex(of: "/") {
                    result["case"] = id[..<slash] + suffix + id[slash...]
                }
                return result
            }
        },
        Mutation(name: "schema-edit") { side, random in
            let value = random.pick([1, 3, "2", 2.5] as [Any])
            update(&side, [.key("schemaVersion")]) { _ in value }
        },
        Mutation(name: "trace-differs") { side, _ in update(&side, [.key("settings"), .key("traceFile")]) { _ in "other.csv" } },
        Mutation(name: "scaled", currentOnly: true) { side, random in
            let factor = random.pick([1.5, 0.6, 1.04])
            everyCase(&side) { result in
                guard (result["case"] as? String)?.contains("fifo-set(") == true, var timing = result["timing"] as? [String: Any] else {
                    return result
                }
                var result = result
                timing["ratiosToReference"] = (timing["ratiosToReference"] as? [Double])?.map { $0 * factor }
                timing["samplesNanosecondsPerEvent"] = (timing["samplesNanosecondsPerEvent"] as? [Double])?.map { $0 * factor }
                result["timing"] = timing
                return result
            }
        },
        Mutation(name: "duplicate-key") { side, random in
            let insertion = random.pick([#""forks":0,"#, #""forks":4,"#, #""quick":true,"#])
            side.textEdits.append { bytes in
                let text = String(decoding: bytes, as: UTF8.self)
                return Array(text.replacingOccurrences(of: #""settings":{"#, with: #""settings":{"# + insertion).utf8)
            }
        },
        Mutation(name: "truncated") { side, random in
            let fraction = Double(random.below(1_000)) / 1_000
            side.textEdits.append { Array($0.prefix(Int(Double($0.count) * fraction))) }
        },
        Mutation(name: "deep-nesting") { side, random in
            let depth = random.pick([600, 100_000])
            side.textEdits.append { bytes in
                var nested: [UInt8] = Array(#"{"deep":"#.utf8)
                nested += [UInt8](repeating: UInt8(ascii: "["), count: depth)
                nested += [UInt8](repeating: UInt8(ascii: "]"), count: depth)
                nested.append(UInt8(ascii: ","))
                return nested + bytes.dropFirst()
            }
        },
        Mutation(name: "byte-order-mark") { side, _ in side.textEdits.append { [0xef, 0xbb, 0xbf] + $0 } },
        Mutation(name: "nul-byte") { side, random in
            let fraction = Double(random.below(1_000)) / 1_000
            side.textEdits.append { bytes in
                var bytes = bytes
                bytes.insert(0, at: Int(Double(bytes.count) * fraction))
                return bytes
            }
        },
        Mutation(name: "utf16") { side, _ in
            side.textEdits.append { bytes in
                [0xff, 0xfe] + String(decoding: bytes, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
            }
        },
    ]
}
