@testable import DedupeHarness
import DedupeReports
import DedupeWorkloads
import Foundation
import Testing

/// The saved persistences are named after the library's `SavingPolicy`; results files and
/// lifecycle scripts written with the former names still read, as the current cases.
@Suite struct FormerNameTests {
    @Test func formerPersistenceNamesReadAsTheirSavingPolicy() throws {
        #expect(Persistence(reading: "snapshot") == .afterEveryConsume)
        #expect(Persistence(reading: "snapshot-on-background") == .onBackground)
        #expect(Persistence(reading: "after-every-consume") == .afterEveryConsume)
        #expect(Persistence(reading: "snapshots") == nil)
        let decoded = try JSONDecoder().decode([Persistence].self, from: Data(#"["snapshot","on-background","memory"]"#.utf8))
        #expect(decoded == [.afterEveryConsume, .onBackground, .memory])
        #expect(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self) == #"["after-every-consume","on-background","memory"]"#)
    }

    @Test func aResultsFileWithFormerCaseIDsReadsAsTheCurrentOnes() throws {
        var results = SyntheticResults.make()
        var saving = try #require(results.cases.first { $0.mode == .twoLayer })
        saving.identity = .pushID
        saving.persistence = .afterEveryConsume
        results.cases.append(saving)
        let json = String(decoding: try ResultsJSON.encode(results), as: UTF8.self)
        let former = json.replacingOccurrences(of: "/after-every-consume\"", with: "/snapshot\"")
        #expect(former != json)
        let decoded = try ResultsJSON.decode(Data(former.utf8))
        #expect(decoded.cases.map(\.id.text) == results.cases.map(\.id.text))
        #expect(decoded.cases.contains { $0.id.text.hasSuffix("/push-id/after-every-consume") })
    }

    @Test func aResultsFileWithTheFormerWindowIDReadsAsTheCurrentOne() throws {
        let results = SyntheticResults.make()
        let json = String(decoding: try ResultsJSON.encode(results), as: UTF8.self)
        let former = json.replacingOccurrences(of: "published-literal", with: "seed-literal")
        #expect(former != json)
        let decoded = try ResultsJSON.decode(Data(former.utf8))
        #expect(decoded.cases.map(\.id.text) == results.cases.map(\.id.text))
        #expect(StrategyCatalogue.currentCaseID("w/two-layer/seed-literal(window=500ms)+set/minted/memory")
            == "w/two-layer/published-literal(window=500ms)+set/minted/memory")
        #expect(StrategyCatalogue.currentCaseID("w/window-alone/seed-literals") == "w/window-alone/seed-literals")
    }
}
