import DedupeWorkloads
import Testing

/// Scaling the fetch behind taps regenerates a workload with only its fetches moved.
@Suite struct FetchScaleTests {
    static let drawingFetches = ScenarioCatalogue.all.filter(\.drawsFetches).map(\.id)

    @Test func theScenariosWithActionsDrawFetches() {
        #expect(Self.drawingFetches == ["async-completion-after-retap", "typical-app-week", "messaging-app-week"])
    }

    /// At the published facts the regenerated events are the catalogue's, byte for byte; at
    /// another scale every other draw is the same, so the same actions and payloads happen, at
    /// times that follow the longer fetches.
    @Test(arguments: drawingFetches)
    func onlyFetchesMove(id: String) throws {
        let scenario = try #require(ScenarioCatalogue.scenario(named: id))
        let stated = scenario.workload(seed: 5)
        let published = try #require(scenario.workload(seed: 5, actionTiming: .published))
        #expect(TraceWriter.encode(published) == TraceWriter.encode(stated))
        let slower = try #require(scenario.workload(seed: 5, actionTiming: ActionTimingFacts.published.scaled(by: 4)))
        #expect(slower.firstInconsistency() == nil)
        #expect(TraceWriter.encode(slower) != TraceWriter.encode(stated))
        func counts(_ workload: Workload) -> [Int] {
            let records = workload.events.columns.actions.records
            return ActionRecord.Kind.allCases.map { kind in records.count { $0.kind == kind } }
                + [workload.events.count, workload.count(.new), workload.count(.dup)]
        }
        #expect(counts(slower) == counts(stated))
    }

    @Test func aScenarioWithoutActionsHasNoScaledWorkload() throws {
        #expect(try #require(ScenarioCatalogue.scenario(named: "button-double-tap")).workload(seed: 5, actionTiming: .published) == nil)
    }
}
