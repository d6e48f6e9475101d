import Testing
@testable import DedupeReports
@testable import DedupeHarness
import DedupeWorkloads
import PushDedupe

@Suite struct CSVTableTests {
    @Test(arguments: [
        ("plain", "plain"), ("", ""), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""), ("cr\r", "\"cr\r\""), ("crlf\r\nline", "\"crlf\r\nline\""),
        ("trailing space ", "trailing space "),
    ])
    func quotesOnlyWhenRFC4180Requires(_ field: String, _ expected: String) {
        #expect(CSVTable.quote(field) == expected)
    }

    @Test func rendersOneHeaderAndCRLFRows() {
        let table = CSVTable(header: ["a", "b"], rows: [["1", "x,y"], ["2", ""]])
        #expect(table.render() == "a,b\r\n1,\"x,y\"\r\n2,\r\n")
    }

    @Test func everyRowHasTheHeaderWidth() {
        let results = Fixtures.results()
        for table in [CSVReport.throughput(results), CSVReport.memory(results), CSVReport.correctness(results), CSVReport.sweeps(results)] {
            #expect(!table.rows.isEmpty)
            #expect(table.rows.allSatisfy { $0.count == table.header.count })
            #expect(Set(table.header).count == table.header.count)
        }
    }

    @Test func numbersRoundTripExactly() {
        for value in [0.1, 1.0 / 3, 12_345.678, 1e-9, 42] {
            #expect(Double(NumberText.exact(value)) == value)
        }
        #expect(NumberText.exact(42.0) == "42")
        #expect(NumberText.exact(Double?.none) == "")
    }
}

/// The decisions file written for `--decisions`, read back.
@Suite struct DecisionsCSVTests {
    @Test func decisionsRoundTrip() throws {
        let routes = ["item:1"]
        let events = [
            WorkloadEvent(time: .milliseconds(0), kind: .payload, envelope: EnvelopeID(high: 1, low: 2),
                          fingerprint: RouteFingerprint(route: "item:1"), route: 0, source: 0, truth: .new),
            WorkloadEvent(time: Timestamp(nanoseconds: 180_000_125), kind: .emit, envelope: EnvelopeID(high: 1, low: 2),
                          fingerprint: RouteFingerprint(route: "item:1"), route: 0, source: 0, truth: .dup),
            WorkloadEvent(time: .milliseconds(200), kind: .emit, envelope: EnvelopeID(high: 3, low: 4),
                          fingerprint: RouteFingerprint(route: "item:1"), route: 0, source: 0, truth: .unknown),
        ]
        let workload = Workload(name: "t", summary: "", routes: routes, sources: ["tap"], events: events)
        let pair = CaseID(workload: "t", choice: StrategyChoice(
            mode: .twoLayer, window: LayerKey(id: "hash-deque", reads: [], Fixtures.parameters),
            consumed: LayerKey(id: "fifo-set", reads: [.capacity], Fixtures.parameters), identity: .pushID, persistence: .afterEveryConsume))
        let decisions = CaseDecisions(
            id: pair, workload: workload,
            decisions: [CaseDecision.navigated, .suppressedByConsumedSet, .skippedEmit].map(\.rawValue))
        let windowAlone = CaseID(workload: "t", choice: StrategyChoice(
            mode: .windowAlone, window: LayerKey(id: "ring-buffer", reads: [.windowLength], Fixtures.parameters), consumed: nil,
            identity: nil, persistence: nil))
        let alone = CaseDecisions(
            id: windowAlone, workload: workload,
            decisions: [CaseDecision.suppressedByWindow, .notApplicable, .notApplicable].map(\.rawValue))
        let text = DecisionsCSV.headerLine + DecisionsCSV.rows(decisions) + DecisionsCSV.rows(alone)
        let rows = try DecisionsCSV.parse(text)
        #expect(rows.count == 4, "emits are not an input of window-alone")
        #expect(rows[0] == DecisionsCSV.Row(
            caseID: "t/two-layer/hash-deque+fifo-set(capacity=1024)/push-id/after-every-consume", workload: "t", event: 1,
            timeMilliseconds: "0", kind: "payload", envelope: EnvelopeID(high: 1, low: 2).description, truth: "new",
            decision: "navigated"))
        #expect(rows[1].timeMilliseconds == "180.000125" && rows[1].decision == "consumed" && rows[1].truth == "dup")
        #expect(rows[2].truth == "" && rows[2].decision == "skipped")
        #expect(rows[3] == DecisionsCSV.Row(
            caseID: "t/window-alone/ring-buffer(window=500ms)", workload: "t", event: 1, timeMilliseconds: "0", kind: "payload",
            envelope: EnvelopeID(high: 1, low: 2).description, truth: "new", decision: "window"))
        #expect(throws: DecisionsCSV.ParseError(line: 2, reason: "unknown decision 'maybe'")) {
            try DecisionsCSV.parse(DecisionsCSV.headerLine + "t/x,t,1,0,payload,x,new,maybe\r\n")
        }
        // A field with a comma (a trace named so) is quoted and reads back whole.
        #expect(DecisionsCSV.fields("\"a,b\",c,\"d\"\"e\"") == ["a,b", "c", "d\"e"])
    }
}
