import Testing
import PushDedupe
@testable import DedupeWorkloads

/// Action lines: read into the workload's action log, written back the same, and every bad one
/// rejected with its file and line.
@Suite struct TraceActionLinesTests {
    static let header = "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed,action"

    /// Good lines 2–4 (a started action `a1` and its completion), then `line` as line 5.
    static func trace(_ line: String, header: String = TraceActionLinesTests.header) -> [UInt8] {
        Array("""
            \(header)
            0,action_start,,order,,,,,a1
            5,payload,e1,receipt:1,async_completion,new,,,a1
            6,action_finish,,,,,,,a1
            \(line)

            """.utf8)
    }

    static let cases: [(String, TraceError.Kind)] = [
        ("7,action_start,,order,,,,,a1", .duplicateAction),
        ("7,action_finish,,,,,,,a1", .unknownAction),
        ("7,action_cancel,,,,,,,a9", .unknownAction),
        ("7,payload,e2,receipt:2,async_completion,dup,,,a9", .unknownAction),
        ("7,action_start,,,,,,,a2", .invalidField),
        ("7,action_start,,order,tap,,,,a2", .invalidField),
        ("7,action_finish,,order,,,,,a1", .invalidField),
        ("7,action_start,,order,,,,,a.2", .invalidField),
        ("7,action_start,,order,,,,,", .invalidField),
        ("7,emit,e1,,pending_route,dup,,,a1", .invalidField),
        ("7,action_begin,,order,,,,,a2", .unknownKind),
    ]

    @Test(arguments: cases)
    func aBadActionLineNamesItsFileAndLine(line: String, kind: TraceError.Kind) {
        #expect(throws: TraceError.self) { try TraceReader.read(bytes: Self.trace(line), fileName: "t.csv") }
        do {
            _ = try TraceReader.read(bytes: Self.trace(line), fileName: "t.csv")
        } catch {
            #expect(error.kind == kind && error.line == 5 && error.description.hasPrefix("t.csv:5: "), "\(error)")
        }
    }

    /// An action line needs the 9-column form.
    @Test func anActionLineInAnEightColumnTraceIsRejected() {
        let header = "time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed"
        #expect(throws: TraceError.self) {
            try TraceReader.read(bytes: Array("\(header)\n0,action_start,,order,,,,\n".utf8), fileName: "t.csv")
        }
    }

    /// The log holds what the lines say, and the writer writes the same bytes back.
    @Test func actionLinesRoundTrip() throws {
        let text = "# hand\n" + String(decoding: Self.trace("9,action_start,,order,,,,,a2").dropLast(), as: UTF8.self)
            + "\n10,action_cancel,,,,,,,a2\n"
        let workload = try TraceReader.read(bytes: Array(text.utf8), fileName: "t.csv")
        let actions = workload.events.columns.actions
        #expect(actions.keys == ["order"] && actions.tokens == ["a1", "a2"])
        #expect(actions.records.map(\.kind) == [.started, .finished, .started, .cancelled])
        #expect(actions.records.map(\.position) == [0, 1, 1, 1])
        #expect(actions.completions == [ActionCompletion(event: 0, action: 0)])
        let written = String(decoding: TraceWriter.encode(workload), as: UTF8.self)
        #expect(written.split(separator: "\n").dropFirst() == text.split(separator: "\n").dropFirst())
    }

    /// A generated workload's actions survive export and import, and its prefix keeps the
    /// actions before its end.
    @Test func generatedActionsRoundTripAndSurviveAPrefix() throws {
        let workload = try #require(ScenarioCatalogue.scenario(named: "async-completion-after-retap")).workload(seed: 3)
        let read = try TraceReader.read(bytes: TraceWriter.encode(workload), fileName: "t.csv")
        #expect(read.events.columns.actions == workload.events.columns.actions)
        let prefix = workload.events.columns.prefix(10)
        #expect(prefix.actions.completions.allSatisfy { $0.event < 10 })
        #expect(prefix.actions.records.allSatisfy { $0.position < 10 })
        #expect(prefix.actions.records.count < workload.events.columns.actions.records.count)
    }
}
