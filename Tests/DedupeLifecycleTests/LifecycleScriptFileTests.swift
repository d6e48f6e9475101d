@testable import DedupeLifecycle
import DedupeWorkloads
import Testing

/// The script file format: it parses what it renders, and names the line of every mistake.
@Suite struct LifecycleScriptFileTests {
    static let example = """
    # one payload, re-emitted while its fetch runs; the fetch then succeeds
    schedule scripted
    route A item:42
    intent i1 A
    envelope e1 A i1
    at 0 payload e1 tap
    at 0.001 emit e1 pending_route
    at 0.002 end 1 success
    """

    @Test func theDocumentedExampleParsesAndRuns() throws {
        let file = try LifecycleScriptFile(parsing: Self.example, fileName: "example.script")
        #expect(file.script.scheduling == .scripted)
        #expect(file.script.inputs.map(\.kind) == [.payload, .emit, .taskEnd])
        #expect(file.inputLines == [6, 7, 8])
        #expect(file.persistence == nil)
        let published = try PolicyRun.outcome(file.script, policy: .published, configuration: LifecycleConfiguration(), seed: 0)
        #expect(published.counts.pushes == 1 && published.counts.suppressedByConsumedSet == 1)
        let after = try PolicyRun.outcome(
            file.script, policy: PolicyVariant.consumeAfterSuccess.policy, configuration: LifecycleConfiguration(), seed: 0)
        #expect(after.counts.reprocessedEnvelopes == 1)
        // Task 1 was asked to cancel by the second handling, so its end pushes nothing; task 2 never ends.
        #expect(after.counts.tasksUnfinished == 1)
    }

    /// Random scripts of every kind, rendered and parsed back, are the same script.
    @Test(arguments: 0..<6)
    func renderedScriptsParseBackToThemselves(seed: Int) throws {
        var script = LifecycleInvariantTests.randomScript(seed: UInt64(seed), inputs: 120, lifecycle: true)
        script.scheduling = seed % 2 == 0 ? .scripted : .drawn
        if script.scheduling == .scripted {
            script.sources += ["task_end", "back"]
            let taskEnd = UInt16(script.sources.count - 2)
            script.inputs.append(.init(time: script.inputs.last!.time, kind: .taskEnd, source: taskEnd, task: 2, succeeds: false))
            script.inputs.append(.init(time: script.inputs.last!.time + 1, kind: .back, source: taskEnd + 1))
        }
        let persistence: Persistence? = seed % 3 == 0 ? nil : Persistence.allCases[seed % 3]
        let text = LifecycleScriptFile.render(script, persistence: persistence, comments: ["seed \(seed)"])
        let file = try LifecycleScriptFile(parsing: text, fileName: "random")
        #expect(file.persistence == persistence)
        #expect(file.script.hostAttachedAtStart == script.hostAttachedAtStart)
        #expect(file.script.scheduling == script.scheduling)
        #expect(file.script.routes == script.routes && file.script.tabs == script.tabs)
        #expect(file.script.intentRoutes == script.intentRoutes)
        #expect(file.script.envelopeRoutes == script.envelopeRoutes && file.script.envelopeIntents == script.envelopeIntents)
        #expect(file.script.inputs.count == script.inputs.count)
        for (parsed, original) in zip(file.script.inputs, script.inputs) {
            #expect(parsed.kind == original.kind && parsed.time == original.time && parsed.intent == original.intent)
            #expect(parsed.envelope == original.envelope && parsed.task == original.task && parsed.succeeds == original.succeeds)
            if parsed.kind == .tap || parsed.kind == .childAppend || parsed.kind == .payload { #expect(parsed.route == original.route) }
            #expect(file.script.sources[Int(parsed.source)] == script.sources[Int(original.source)])
        }
    }

    @Test(arguments: [
        ("route A", 1, "expected 'route NAME ROUTE"),
        ("route A item:1 hidden", 1, "unknown tab state 'hidden'"),
        ("route A item:1\nroute A item:2", 2, "route 'A' declared twice"),
        ("intent i1 B", 1, "unknown route 'B'"),
        ("route A item:1\nintent i1 A\nenvelope e1 A i2", 3, "unknown intent 'i2'"),
        ("route A item:1\nintent i1 A\nat 0 payload e9", 3, "unknown envelope 'e9'"),
        ("route A item:1\nintent i1 A\nat -1 tap A i1", 3, "invalid time '-1'"),
        ("route A item:1\nintent i1 A\nat 1e3 tap A i1", 3, "invalid time '1e3'"),
        ("route A item:1\nintent i1 A\nat 5 tap A i1\nat 4 tap A i1", 4, "before the previous line"),
        ("route A item:1\nintent i1 A\nat 5 jump A i1", 3, "unknown input 'jump'"),
        ("route A item:1\nintent i1 A\nat 5 tap A", 3, "expected 'at MS tap ROUTE INTENT [SOURCE]'"),
        ("at 0 end 1 success", 1, "needs 'schedule scripted'"),
        ("schedule scripted\nat 0 end 0 success", 2, "invalid task '0'"),
        ("schedule scripted\nat 0 end 1 maybe", 2, "invalid outcome 'maybe'"),
        ("schedule sometimes", 1, "unknown schedule 'sometimes'"),
        ("persistence disk", 1, "unknown persistence 'disk'"),
        ("host attached\nhost detached", 2, "'host' given twice"),
        ("route A item:1\nintent i1 A\nat 0 tap A i1\nhost detached", 4, "must come before the first 'at' line"),
        ("route A item:1\nintent i1 A\nat 0 checkout-tap i1", 3, "is not a checkout"),
        ("route A? item:1", 1, "'A?' is not a name"),
        ("hello", 1, "unknown line 'hello'"),
        ("# only a comment\n\n", 0, "no 'at' line"),
    ] as [(String, Int, String)])
    func malformedScriptsNameTheirLine(text: String, line: Int, reason: String) {
        do {
            _ = try LifecycleScriptFile(parsing: text, fileName: "bad.script")
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.description.hasPrefix(line > 0 ? "bad.script:\(line): " : "bad.script: "), "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func millisecondsRenderExactly() {
        #expect(LifecycleScriptFile.millisecondsText(0) == "0")
        #expect(LifecycleScriptFile.millisecondsText(1_000) == "0.001")
        #expect(LifecycleScriptFile.millisecondsText(501_002_000) == "501.002")
        #expect(LifecycleScriptFile.millisecondsText(12_345_678) == "12.345678")
    }
}
