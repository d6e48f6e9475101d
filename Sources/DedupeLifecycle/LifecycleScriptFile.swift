import DedupeWorkloads
import PushDedupe

/// A lifecycle script as a small text file: what `dedupe-bench policies --script FILE` replays
/// and what `dedupe-bench verify` prints its counterexamples as. The format is in
/// `Guides/Policies.md` § Script files:
///
/// ```text
/// # one payload, re-emitted while its fetch runs; the fetch then succeeds
/// schedule scripted
/// route A item:42
/// intent i1 A
/// envelope e1 A i1
/// at 0 payload e1 tap
/// at 0.001 emit e1 pending_route
/// at 0.002 end 1 success
/// ```
package struct LifecycleScriptFile: Sendable {
    package var script: LifecycleScript
    /// The `persistence` line, if any.
    package var persistence: Persistence?
    /// The file's line of each input, by input index.
    package var inputLines: [Int]

    /// The keyword of each input kind.
    package static func keyword(_ kind: LifecycleScript.Input.Kind) -> String {
        switch kind {
        case .payload: "payload"
        case .emit: "emit"
        case .hostAttach: "host-attach"
        case .hostDetach: "host-detach"
        case .tap: "tap"
        case .childAppend: "child-append"
        case .checkoutTap: "checkout-tap"
        case .background: "background"
        case .relaunch: "relaunch"
        case .taskEnd: "end"
        case .taskCancel: "cancel"
        case .back: "back"
        }
    }

    /// Parses `text`; `fileName` names the script and every error.
    ///
    /// - Throws: ``LifecycleScriptError`` at the first malformed line, naming it.
    /// - Complexity: O(*n*) in the text.
    package init(parsing text: String, fileName: String) throws(LifecycleScriptError) {
        var parser = _ScriptParser(fileName: fileName)
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = rawLine.last == "\r" ? rawLine.dropLast() : rawLine[...]
            let content = line.prefix { $0 != "#" }
            let tokens = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !tokens.isEmpty else { continue }
            try parser.line(tokens, number: number)
        }
        self = try parser.finish()
    }

    init(script: LifecycleScript, persistence: Persistence?, inputLines: [Int]) {
        self.script = script
        self.persistence = persistence
        self.inputLines = inputLines
    }

    /// `script` as a file that parses back to it (envelope ids aside: a file's are drawn from
    /// seed 0), with `comments` on top and `persistence` if given.
    ///
    /// - Complexity: O(*n*) in the script.
    package static func render(_ script: LifecycleScript, persistence: Persistence?, comments: [String] = []) -> String {
        var out = comments.map { "# \($0)\n" }.joined()
        if !script.hostAttachedAtStart { out += "host detached\n" }
        if script.scheduling == .scripted { out += "schedule scripted\n" }
        if let persistence { out += "persistence \(persistence.rawValue)\n" }
        func route(_ index: UInt32) -> String { "r\(index + 1)" }
        func intent(_ index: Int32) -> String { "i\(index + 1)" }
        for (index, text) in script.routes.enumerated() {
            let tab = script.tabs[index] == .enabled ? "" : " \(script.tabs[index].rawValue)"
            out += "route \(route(UInt32(index))) \(text)\(tab)\n"
        }
        for (index, wanted) in script.intentRoutes.enumerated() {
            out += "intent \(intent(Int32(index))) \(wanted == .max ? "checkout" : route(wanted))\n"
        }
        for index in script.envelopes.indices {
            out += "envelope e\(index + 1) \(route(script.envelopeRoutes[index])) \(intent(script.envelopeIntents[index]))\n"
        }
        for input in script.inputs {
            let source = Int(input.source) < script.sources.count ? script.sources[Int(input.source)] : ""
            let named = source.isEmpty || source == LifecycleScriptBuilder.defaultSource(of: input.kind) ? "" : " \(source)"
            var line = "at \(millisecondsText(input.time)) \(keyword(input.kind))"
            switch input.kind {
            case .payload, .emit: line += " e\(input.envelope + 1)\(named)"
            case .tap, .childAppend: line += " \(route(input.route)) \(intent(input.intent))\(named)"
            case .checkoutTap: line += " \(intent(input.intent))\(named)"
            case .hostAttach, .hostDetach: line += named
            case .taskEnd: line += " \(input.task + 1) \(input.succeeds ? "success" : "failure")"
            case .taskCancel: line += " \(input.task + 1)"
            case .background, .relaunch, .back: break
            }
            out += line + "\n"
        }
        return out
    }

    /// Nanoseconds as milliseconds with up to six decimals, trailing zeros dropped.
    static func millisecondsText(_ nanoseconds: Int64) -> String {
        let whole = nanoseconds / 1_000_000
        var fraction = String(nanoseconds % 1_000_000)
        guard fraction != "0" else { return String(whole) }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}

/// A malformed script file: `FILE:LINE: reason`.
package struct LifecycleScriptError: Error, Equatable, Sendable, CustomStringConvertible {
    package var fileName: String
    /// 1-based; 0 for a problem with the whole file.
    package var line: Int
    package var reason: String

    package var description: String {
        line > 0 ? "\(fileName):\(line): \(reason)" : "\(fileName): \(reason)"
    }
}

/// The line-by-line state of parsing a script file.
struct _ScriptParser {
    let fileName: String
    var builder: LifecycleScriptBuilder
    var hostAttached: Bool?
    var scheduling: LifecycleScript.Scheduling?
    var persistence: Persistence?
    var routes: [String: UInt32] = [:]
    var intents: [String: Int32] = [:]
    var envelopes: [String: Int32] = [:]
    var inputLines: [Int] = []
    var lastTime: Int64 = 0
    var sawInput = false

    init(fileName: String) {
        self.fileName = fileName
        builder = LifecycleScriptBuilder(name: fileName, summary: "a script file", seed: 0)
    }

    func fail(_ number: Int, _ reason: String) -> LifecycleScriptError {
        LifecycleScriptError(fileName: fileName, line: number, reason: reason)
    }

    func name(_ token: String, _ number: Int) throws(LifecycleScriptError) -> String {
        guard !token.isEmpty, token.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw fail(number, "'\(token)' is not a name (letters, digits, '_' and '-')")
        }
        return token
    }

    mutating func line(_ tokens: [String], number: Int) throws(LifecycleScriptError) {
        switch tokens[0] {
        case "host", "schedule", "persistence":
            try setting(tokens, number: number)
        case "route":
            guard tokens.count == 3 || tokens.count == 4 else { throw fail(number, "expected 'route NAME ROUTE [enabled|disabled|no-tab]'") }
            let name = try name(tokens[1], number)
            guard routes[name] == nil else { throw fail(number, "route '\(name)' declared twice") }
            var tab = LifecycleScript.TabState.enabled
            if tokens.count == 4 {
                guard let state = LifecycleScript.TabState(rawValue: tokens[3]) else {
                    throw fail(number, "unknown tab state '\(tokens[3])' (enabled, disabled, no-tab)")
                }
                tab = state
            }
            routes[name] = builder.route(tokens[2], tab: tab)
        case "intent":
            guard tokens.count == 3 else { throw fail(number, "expected 'intent NAME ROUTE-NAME' or 'intent NAME checkout'") }
            let name = try name(tokens[1], number)
            guard intents[name] == nil else { throw fail(number, "intent '\(name)' declared twice") }
            intents[name] = builder.intent(wanting: tokens[2] == "checkout" ? .max : try route(tokens[2], number))
        case "envelope":
            guard tokens.count == 4 else { throw fail(number, "expected 'envelope NAME ROUTE-NAME INTENT-NAME'") }
            let name = try name(tokens[1], number)
            guard envelopes[name] == nil else { throw fail(number, "envelope '\(name)' declared twice") }
            envelopes[name] = builder.envelope(route: try route(tokens[2], number), intent: try intent(tokens[3], number))
        case "at":
            try input(tokens, number: number)
        default:
            throw fail(number, "unknown line '\(tokens[0])' (host, schedule, persistence, route, intent, envelope, at)")
        }
    }

    private mutating func setting(_ tokens: [String], number: Int) throws(LifecycleScriptError) {
        guard tokens.count == 2 else { throw fail(number, "expected '\(tokens[0]) VALUE'") }
        guard !sawInput else { throw fail(number, "'\(tokens[0])' must come before the first 'at' line") }
        switch tokens[0] {
        case "host":
            guard hostAttached == nil else { throw fail(number, "'host' given twice") }
            switch tokens[1] {
            case "attached": hostAttached = true
            case "detached": hostAttached = false
            default: throw fail(number, "unknown host state '\(tokens[1])' (attached, detached)")
            }
        case "schedule":
            guard scheduling == nil else { throw fail(number, "'schedule' given twice") }
            guard let value = LifecycleScript.Scheduling(rawValue: tokens[1]) else {
                throw fail(number, "unknown schedule '\(tokens[1])' (drawn, scripted)")
            }
            scheduling = value
        default:
            guard persistence == nil else { throw fail(number, "'persistence' given twice") }
            guard let value = Persistence(reading: tokens[1]) else {
                throw fail(number, "unknown persistence '\(tokens[1])' (\(Persistence.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            persistence = value
        }
    }

    private func route(_ token: String, _ number: Int) throws(LifecycleScriptError) -> UInt32 {
        guard let index = routes[token] else { throw fail(number, "unknown route '\(token)' (declare it with a 'route' line first)") }
        return index
    }

    private func intent(_ token: String, _ number: Int) throws(LifecycleScriptError) -> Int32 {
        guard let index = intents[token] else { throw fail(number, "unknown intent '\(token)' (declare it with an 'intent' line first)") }
        return index
    }

    private func envelope(_ token: String, _ number: Int) throws(LifecycleScriptError) -> Int32 {
        guard let index = envelopes[token] else {
            throw fail(number, "unknown envelope '\(token)' (declare it with an 'envelope' line first)")
        }
        return index
    }

    private mutating func input(_ tokens: [String], number: Int) throws(LifecycleScriptError) {
        guard tokens.count >= 3 else { throw fail(number, "expected 'at MS KIND ...'") }
        guard let milliseconds = Self.decimal(tokens[1]), milliseconds <= 1e12 else {
            throw fail(number, "invalid time '\(tokens[1])': expected milliseconds, a plain decimal number up to 10^12")
        }
        let time = LifecycleScriptBuilder.nanoseconds(milliseconds)
        guard time >= lastTime else { throw fail(number, "time \(tokens[1]) ms is before the previous line's") }
        lastTime = time
        sawInput = true
        guard let kind = LifecycleScript.Input.Kind.allCases.first(where: { LifecycleScriptFile.keyword($0) == tokens[2] }) else {
            let known = LifecycleScript.Input.Kind.allCases.map(LifecycleScriptFile.keyword).joined(separator: ", ")
            throw fail(number, "unknown input '\(tokens[2])' (\(known))")
        }
        let arguments = Array(tokens.dropFirst(3))
        func expect(_ counts: ClosedRange<Int>, _ usage: String) throws(LifecycleScriptError) {
            guard counts.contains(arguments.count) else { throw fail(number, "expected 'at MS \(tokens[2])\(usage)'") }
        }
        func source(at position: Int) -> UInt16 {
            builder.source(position < arguments.count ? arguments[position] : LifecycleScriptBuilder.defaultSource(of: kind))
        }
        var input = LifecycleScript.Input(time: time, kind: kind)
        switch kind {
        case .payload, .emit:
            try expect(1...2, " ENVELOPE [SOURCE]")
            let envelope = try envelope(arguments[0], number)
            input.envelope = envelope
            input.route = builder.routeOfEnvelope(envelope)
            input.intent = builder.intentOfEnvelope(envelope)
            input.source = source(at: 1)
        case .tap, .childAppend:
            try expect(2...3, " ROUTE INTENT [SOURCE]")
            input.route = try route(arguments[0], number)
            input.intent = try intent(arguments[1], number)
            input.source = source(at: 2)
        case .checkoutTap:
            try expect(1...2, " INTENT [SOURCE]")
            input.intent = try intent(arguments[0], number)
            guard builder.wantsCheckout(input.intent) else { throw fail(number, "intent '\(arguments[0])' is not a checkout") }
            input.source = source(at: 1)
        case .hostAttach, .hostDetach:
            try expect(0...1, " [SOURCE]")
            input.source = source(at: 0)
        case .background, .relaunch, .back:
            try expect(0...0, "")
            input.source = source(at: 0)
            if kind == .back { try requireScripted(number, "back") }
        case .taskEnd:
            try expect(2...2, " TASK success|failure")
            try requireScripted(number, "end")
            input.task = try task(arguments[0], number)
            switch arguments[1] {
            case "success": input.succeeds = true
            case "failure": input.succeeds = false
            default: throw fail(number, "invalid outcome '\(arguments[1])' (success, failure)")
            }
            input.source = source(at: 2)
        case .taskCancel:
            try expect(1...1, " TASK")
            try requireScripted(number, "cancel")
            input.task = try task(arguments[0], number)
            input.source = source(at: 1)
        }
        builder.add(input)
        inputLines.append(number)
    }

    /// A task's number in start order, from 1, as the task index from 0.
    private func task(_ text: String, _ number: Int) throws(LifecycleScriptError) -> Int32 {
        guard let task = Int(text), text.allSatisfy(\.isNumber), task >= 1, task <= Int(Int32.max) else {
            throw fail(number, "invalid task '\(text)': expected its number in start order, from 1")
        }
        return Int32(task - 1)
    }

    private func requireScripted(_ number: Int, _ keyword: String) throws(LifecycleScriptError) {
        guard scheduling == .scripted else { throw fail(number, "'\(keyword)' needs 'schedule scripted' before the first 'at' line") }
    }

    consuming func finish() throws(LifecycleScriptError) -> LifecycleScriptFile {
        guard sawInput else { throw fail(0, "no 'at' line: the script has no inputs") }
        builder.setStart(hostAttached: hostAttached ?? true, scheduling: scheduling ?? .drawn)
        let lines = inputLines
        return LifecycleScriptFile(script: builder.finish(), persistence: persistence, inputLines: lines)
    }

    /// A plain decimal number: digits with at most one `.` between digits (no sign, exponent,
    /// `inf` or `nan`).
    static func decimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }) else {
            return nil
        }
        return Double(text)
    }
}
