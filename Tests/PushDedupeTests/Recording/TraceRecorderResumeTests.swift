import Foundation
import PushDedupe
import Testing

/// Recording across relaunches into one file: `TraceRecorder.resume(from:)` and
/// `recording(to:)`, with the wall clock injected.
@Suite struct TraceRecorderResumeTests {
    static let origin = Date(timeIntervalSince1970: 1_700_000_000)
    static let threeDays: TimeInterval = 3 * 24 * 3_600

    static func lines(_ url: URL) throws -> [[String]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst(3)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Launch 1 opens a push and is killed after going to the background; launch 2 comes three
    /// days later, with the set restored from its store, and sees the stale initial
    /// notification of that push, which it suppresses. The trace holds the gap and the
    /// suppressed event.
    @MainActor @Test func aRelaunchThreeDaysLaterIsWrittenAtTheGap() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let traceURL = directory.file("session.csv")
        let store = DedupeStore.snapshot(directory.file("consumed.pdcs"), saving: .onBackground)

        let firstClock = ManualClock()
        let firstRecorder = try TraceRecorder.recording(to: traceURL, now: Self.origin)
        let first = MainActorDeduplicator.recommended(store: store, clock: .manual(firstClock), recorder: firstRecorder)
        #expect(first.receivePayload(route: "item:42", pushID: "msg-1", source: "tap") == .navigated)
        firstClock.set(to: .milliseconds(20_000))
        first.didEnterBackground()

        let secondClock = ManualClock()
        let secondRecorder = try TraceRecorder.recording(to: traceURL, now: Self.origin + Self.threeDays)
        let second = MainActorDeduplicator.recommended(store: store, clock: .manual(secondClock), recorder: secondRecorder)
        #expect(second.restoreOutcome == .restored(ids: 1))
        secondClock.set(to: .milliseconds(120))
        #expect(second.receivePayload(route: "item:42", pushID: "msg-1", source: "initial_notification") == .suppressedByConsumedSet)
        #expect(second.receiveEmit(pushID: "msg-1", source: "pending_route") == .suppressedByConsumedSet)
        #expect(second.receivePayload(route: "item:7", pushID: "msg-2", source: "tap") == .navigated)
        second.didEnterBackground()

        let gap = "259200000"   // three days in milliseconds
        #expect(try Self.lines(traceURL) == [
            ["0", "payload", "d1", "item:42", "tap", "", "msg-1", ""],
            ["20000", "background", "", "", "", "", "", ""],
            [gap, "relaunch", "", "", "", "", "", ""],
            ["259200120", "payload", "d2", "item:42", "initial_notification", "", "msg-1", "consumed-set"],
            ["259200120", "emit", "d1", "", "pending_route", "", "", "consumed-set"],
            ["259200120", "payload", "d3", "item:7", "tap", "", "msg-2", ""],
            ["259200120", "background", "", "", "", "", "", ""],
        ])
        let text = try String(contentsOf: traceURL, encoding: .utf8)
        #expect(text.components(separatedBy: "time_ms,").count == 2, "one header")
        #expect(text.components(separatedBy: "# origin_unix_ms=1700000000000\n").count == 2)
    }

    /// A `UUID` envelope created before the relaunch may be emitted after it; `d` tokens keep
    /// counting from the file's highest.
    @MainActor @Test func resumingKnowsTheFilesEnvelopesAndTokens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("session.csv")
        let tapped = UUID()
        do {
            let recorder = try TraceRecorder.recording(to: url, routes: .hashed(), now: Self.origin)
            let dedupe = MainActorDeduplicator.recommended(clock: .manual(ManualClock()), recorder: recorder)
            _ = dedupe.receivePayload(route: "item:1", envelope: tapped)
            for delivery in 0..<11 { _ = dedupe.receivePayload(route: "item:2", pushID: "p\(delivery % 2)") }
            recorder.withSink { $0.close() }
        }
        let recorder = try TraceRecorder.resume(from: url, routes: .hashed(), relaunchedAt: Self.origin + 60)
        let dedupe = MainActorDeduplicator.recommended(clock: .manual(ManualClock()), recorder: recorder)
        #expect(dedupe.receiveEmit(envelope: tapped, source: "pending_route") == .navigated)
        #expect(dedupe.receiveEmit(pushID: "p1") == .navigated)
        _ = dedupe.receivePayload(route: "item:3", pushID: "p2")
        #expect(dedupe.receiveEmit(pushID: "never-delivered") == .navigated)
        #expect(recorder.skippedEvents == 1)
        recorder.withSink { $0.close() }
        let lines = try Self.lines(url)
        #expect(lines[12] == ["60000", "relaunch", "", "", "", "", "", ""])
        #expect(lines[13][1] == "emit" && lines[13][2] == tapped.uuidString.lowercased())
        #expect(lines[14][1] == "emit" && lines[14][2] == "d2", "p1's first delivery")
        #expect(lines[15][2] == "d12")
        #expect(lines.count == 16)
    }

    /// A wall clock that went back (or a relaunch within the earlier launch's recorded span)
    /// writes the relaunch at the file's latest time: times never decrease.
    @MainActor @Test func aWallClockBehindTheFileRelaunchesAtItsLatestTime() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("session.csv")
        let recorder = try TraceRecorder.recording(to: url, now: Self.origin)
        recorder.recordBackground(at: .milliseconds(90_000))
        recorder.withSink { $0.close() }
        let resumed = try TraceRecorder.resume(from: url, relaunchedAt: Self.origin - 3_600)
        resumed.withSink { $0.close() }
        #expect(try Self.lines(url).last == ["90000", "relaunch", "", "", "", "", "", ""])
    }

    @Test func filesThatCannotBeResumedAreNamedWithTheirLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let header = "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed"
        let comment = "# Recorded by PushDedupe TraceRecorder (routes verbatim)\n# origin_unix_ms=1700000000000\n"
        let cases: [(String, String, String)] = [
            ("", "session.csv: empty file", "empty"),
            (comment + header + "\n0,payload,d1,item:1,,,p,", "session.csv:4: the last line is cut off", "partial"),
            ("# Recorded by PushDedupe TraceRecorder (routes verbatim)\n" + header + "\n", "session.csv:2: no '# origin_unix_ms='", "no origin"),
            (comment + "time_ms,kind,envelope,fingerprint,source,truth\n", "session.csv:3: the header is not", "old header"),
            (comment + header + "\n0,payload,d1,item:1,,\n", "session.csv:4: expected 8 columns, found 6", "columns"),
            (comment + header + "\nsoon,relaunch,,,,,,\n", "session.csv:4: bad time_ms 'soon'", "time"),
            (comment + header + "\n1,launch,,,,,,\n", "session.csv:4: unknown kind 'launch'", "kind"),
            (comment.replacingOccurrences(of: "verbatim", with: "hashed") + header + "\n", "session.csv:1: recorded with routes hashed", "mode"),
        ]
        for (text, message, name) in cases {
            let url = directory.file("session.csv")
            try Data(text.utf8).write(to: url)
            #expect(throws: TraceFileError.self, "\(name)") { _ = try TraceRecorder.resume(from: url) }
            do {
                _ = try TraceRecorder.resume(from: url)
            } catch {
                #expect(error.description.hasPrefix(message), "\(name): \(error)")
            }
        }
        #expect(throws: TraceFileError.self) { _ = try TraceRecorder.resume(from: directory.file("missing.csv")) }
    }

    /// Resuming reads times with the format's one decoder, so every time the recorder writes,
    /// −2⁶³ ns included, reads back.
    @Test func resumingReadsEveryTimeTheRecorderWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("session.csv")
        let recorder = try TraceRecorder.recording(to: url, now: Self.origin)
        recorder.recordPayload(
            route: "item:1", envelope: EnvelopeID(high: 1, low: 1), pushID: nil, source: "", at: Timestamp(nanoseconds: .min),
            decision: .navigated)
        recorder.withSink { $0.close() }
        let resumed = try TraceRecorder.resume(from: url, relaunchedAt: Self.origin + 60)
        resumed.withSink { $0.close() }
        #expect(try Self.lines(url).map { $0[0] } == ["-9223372036854.775808", "60000"])
    }

    /// The file sink buffers whole lines and writes them at a flush, so a recorder costs one
    /// copy per event; a released recorder flushes.
    @Test func theFileSinkWritesWholeLinesAtFlushes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("session.csv")
        var recorder: TraceRecorder<TraceFileSink>? = try TraceRecorder.recording(to: url, now: Self.origin)
        recorder?.recordPayload(route: "item:1", envelope: EnvelopeID(high: 1, low: 1), pushID: nil, source: "", at: .zero, decision: .navigated)
        #expect(try Data(contentsOf: url).isEmpty, "nothing written before a flush")
        recorder = nil
        #expect(try Self.lines(url).count == 1)
    }
}
