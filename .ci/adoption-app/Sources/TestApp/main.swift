// The test app of `.ci/check-adoption`: an app that depends on PushDedupe the way the README says.
//
//   TestApp record SESSION.csv STORE           a session across a relaunch three days later,
//                                              recorded with `TraceRecorder.recording(to:)`
//   TestApp adopt SESSION.csv DECISIONS.csv CASE
//                                              the same trace through `Adopted.swift` (the code
//                                              `replay` printed, with the trace's clock passed
//                                              in), compared with replay's decisions for CASE
//   TestApp router                             NavigationRouter as the README adopts it, through a
//                                              double tap, a push during a fetch and a replayed
//                                              envelope (RouterCheck.swift)
import Foundation
import PushDedupe

@MainActor func record(trace: URL, store storeURL: URL) throws {
    let firstLaunch = Date(timeIntervalSince1970: 1_764_547_200)
    let store = RecommendedPreset.v3.store(at: storeURL)
    // Launch 1: pushes tapped, some delivered twice (two tokens), some replayed by the pending
    // route when the host attaches.
    do {
        let clock = ManualClock()
        let recorder = try TraceRecorder.recording(to: trace, now: firstLaunch)
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, store: store, clock: .manual(clock), recorder: recorder)
        for n in 0..<30 {
            let push = "msg-\(n)"
            let route = "item:\(n % 7)"
            _ = dedupe.receivePayload(route: route, pushID: push, source: "tap")
            if n % 3 == 0 {
                clock.advance(by: .milliseconds(120))
                _ = dedupe.receivePayload(route: route, pushID: push, source: "second_token")
            }
            if n % 4 == 0 {
                clock.advance(by: .milliseconds(900))
                _ = dedupe.receiveEmit(pushID: push, source: "pending_route")
            }
            clock.advance(by: .seconds(45))
        }
        dedupe.didEnterBackground()
        print("launch 1 counters: \(dedupe.counters)")
    }
    // Launch 2, three days later, after iOS killed the app: the SDK hands back the last
    // notification again, then new pushes arrive.
    do {
        let clock = ManualClock()
        let recorder = try TraceRecorder.recording(to: trace, now: firstLaunch.addingTimeInterval(3 * 86_400))
        let dedupe = MainActorDeduplicator(preset: RecommendedPreset.v3, store: store, clock: .manual(clock), recorder: recorder)
        _ = dedupe.receivePayload(route: "item:1", pushID: "msg-29", source: "cold_launch")
        for n in 30..<36 {
            clock.advance(by: .seconds(30))
            _ = dedupe.receivePayload(route: "item:\(n % 7)", pushID: "msg-\(n)", source: "tap")
            _ = dedupe.receiveEmit(pushID: "msg-\(n)", source: "ready_callback")
        }
        dedupe.didEnterBackground()
        print("launch 2 restore: \(dedupe.restoreOutcome); counters: \(dedupe.counters)")
    }
}

/// `1234.5` ms as exact nanoseconds.
func nanoseconds(milliseconds text: Substring) -> Int64? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, let whole = Int64(parts[0]) else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
        let digits = parts[1].prefix(6)
        guard let value = Int64(digits.padding(toLength: 6, withPad: "0", startingAt: 0)) else { return nil }
        fraction = value
    }
    return whole * 1_000_000 + fraction
}

@MainActor func adopt(trace: URL, decisions: URL, caseID: String) throws -> Bool {
    // Replay's decisions for the pick, in event order (payload and emit rows).
    var expected: [String] = []
    for line in try String(contentsOf: decisions, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst() {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 8, fields[0] == caseID, fields[4] == "payload" || fields[4] == "emit" else { continue }
        expected.append(String(fields[7]))
    }
    guard !expected.isEmpty else { print("no decisions of \(caseID) in \(decisions.lastPathComponent)"); return false }

    let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("adopted-\(getpid()).pdcs")
    defer { try? FileManager.default.removeItem(at: storeURL) }
    let clock = ManualClock()
    var launch = try launchAdopted(storeURL: storeURL, clock: clock)
    // Each launch's counters, summed: what a shipping app reports, to match the decisions.
    var counted = (navigated: 0, window: 0, consumed: 0)
    func addCounters() {
        let counters = launch.counters()
        counted.navigated += counters.navigated
        counted.window += counters.suppressedByWindow
        counted.consumed += counters.suppressedByConsumedSet
    }
    var envelopes: [String: UUID] = [:]
    var pushOfEnvelope: [String: String] = [:]
    var actual: [String] = []
    for line in try String(contentsOf: trace, encoding: .utf8).split(whereSeparator: \.isNewline) {
        if line.hasPrefix("#") || line.hasPrefix("time_ms") { continue }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count >= 2, let time = nanoseconds(milliseconds: fields[0]) else { continue }
        clock.set(to: Timestamp(nanoseconds: time))
        let token = fields.count > 2 ? String(fields[2]) : ""
        var push = fields.count > 6 ? String(fields[6]) : ""
        switch fields[1] {
        case "relaunch":
            addCounters()
            launch = try launchAdopted(storeURL: storeURL, clock: clock)
        case "background":
            launch.background()
        case "payload":
            let envelope = envelopes[token] ?? UUID()
            envelopes[token] = envelope
            pushOfEnvelope[token] = push
            actual.append(label(launch.payload(String(fields[3]), push, envelope)))
        case "emit":
            if push.isEmpty { push = pushOfEnvelope[token] ?? "" }
            let envelope = envelopes[token] ?? UUID()
            actual.append(label(launch.emit(push, envelope)))
        default:
            continue
        }
    }
    addCounters()
    let differing = zip(expected, actual).enumerated().filter { $0.element.0 != $0.element.1 }
    print("adopted code on \(trace.lastPathComponent): \(actual.count) decisions, replay wrote \(expected.count) for \(caseID)")
    let decided = (navigated: actual.filter { $0 == "navigated" }.count, window: actual.filter { $0 == "window" }.count,
                   consumed: actual.filter { $0 == "consumed" }.count)
    print("navigated \(decided.navigated), window \(decided.window), consumed \(decided.consumed)")
    print("counters, summed over the launches: navigated \(counted.navigated), window \(counted.window), consumed \(counted.consumed)")
    guard decided == counted else {
        print("the counters do not match the decisions")
        return false
    }
    if expected.count != actual.count || !differing.isEmpty {
        for (index, pair) in differing.prefix(5) { print("event \(index + 1): replay \(pair.0), adopted code \(pair.1)") }
        return false
    }
    print("every decision equals replay's")
    return true
}

func label(_ decision: RoutingDecision) -> String {
    switch decision {
    case .navigated: "navigated"
    case .suppressedByWindow: "window"
    case .suppressedByConsumedSet: "consumed"
    }
}

/// What `Adopted.swift` returns: the printed deduplicator's calls, as closures, so this file does
/// not need its types.
struct AdoptedLaunch {
    var payload: (_ route: String, _ messageID: String, _ envelope: UUID) -> RoutingDecision
    var emit: (_ messageID: String, _ envelope: UUID) -> RoutingDecision
    var background: () -> Void
    var counters: () -> DedupeCounters
}

// Top-level code on the main actor: the router check awaits its tasks, so this is async main.
let arguments = CommandLine.arguments
switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
case ("record", 4):
    try record(trace: URL(fileURLWithPath: arguments[2]), store: URL(fileURLWithPath: arguments[3]))
case ("adopt", 5):
    let passed = try adopt(trace: URL(fileURLWithPath: arguments[2]), decisions: URL(fileURLWithPath: arguments[3]), caseID: arguments[4])
    exit(passed ? 0 : 1)
case ("router", 2):
    exit(try await checkRouter() ? 0 : 1)
default:
    FileHandle.standardError.write(Data("usage: TestApp record SESSION.csv STORE | adopt SESSION.csv DECISIONS.csv CASE | router\n".utf8))
    exit(2)
}
