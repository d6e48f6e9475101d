@testable import DedupeStoreLab
@testable import DedupeDecision
import Foundation
import PushDedupe
import Testing
@testable import DedupeHarness
@testable import DedupeReports

/// The store pick, its report section, CSVs and adoption code, from hand-built store results.
@Suite struct StorePickTests {
    static func cost(_ design: String, _ durability: String = "kill", retained: Int = 1_750, median: Double, p99: Double) -> StoreCost {
        StoreCost(
            design: design, durability: durability, retained: retained, consumes: 1_000, medianNanoseconds: median, p99Nanoseconds: p99,
            maxNanoseconds: p99 * 3, meanNanoseconds: median * 1.1, bytesPerConsume: 24, compactions: 2, folderBytes: 4_096,
            restoreMicroseconds: design == StoreCost.structureDesign ? nil : 50)
    }

    /// Four designs: `mapped-journal` is the cheapest but loses an id at a kill, `snapshot` loses
    /// ids with two writers, `sqlite` destroyed a file; `journal` is the only one left.
    static func stores(mappedLost: Int = 1, sqliteDestroyed: Int = 1) -> StoreResults {
        let designs = DedupeStore.Design.allCases.map(\.rawValue)
        var costs = [cost(StoreCost.structureDesign, median: 30, p99: 60)]
        let p99: [String: Double] = ["snapshot": 400_000, "journal": 9_000, "mapped-journal": 300, "sqlite": 8_000]
        for design in designs {
            costs.append(cost(design, median: p99[design]! / 2, p99: p99[design]!))
            costs.append(cost(design, "power-loss", median: p99[design]! * 50, p99: p99[design]! * 100))
        }
        return StoreResults(
            retained: 1_750, costs: costs,
            sweep: designs.flatMap { design in [100, 1_000].map { cost(design, retained: $0, median: 10, p99: 20) } },
            kills: designs.map {
                StoreKillResult(design: $0, retained: 128, killPoints: 1_000, acknowledged: 50_000, lost: $0 == "mapped-journal" ? mappedLost : 0,
                                repairs: 0, tornTailsCut: 0)
            },
            twoWriters: designs.map {
                StoreTwoWriterResult(design: $0, consumesPerWriter: 10_000, retained: 21_000, acknowledged: 20_000, lost: $0 == "snapshot" ? 9_000 : 0)
            },
            damage: designs.map {
                StoreDamageResult(design: $0, kind: .bitFlip, ids: 16, trials: 100, lostMax: 1, lostTotal: 10, destroyed: $0 == "sqlite" ? sqliteDestroyed : 0)
            })
    }

    @Test func theCheapestDesignThatKeepsEveryIdIsPicked() throws {
        let pick = try #require(StorePick.make(from: Self.stores()))
        #expect(pick.design == "journal")
        #expect(pick.cost.p99Nanoseconds == 9_000 && pick.structure?.design == StoreCost.structureDesign)
        #expect(pick.excluded.map(\.design) == ["snapshot", "mapped-journal", "sqlite"])
        #expect(pick.excluded[0].reason.contains("9000 of 20000") && pick.excluded[0].reason.contains("two writer"))
        #expect(pick.excluded[1].reason.contains("SIGKILL"))
        #expect(pick.excluded[2].reason.contains("destroyed 1"))
    }

    @Test func withNoLossTheLowestP99Wins() throws {
        #expect(StorePick.make(from: Self.stores(mappedLost: 0, sqliteDestroyed: 0))?.design == "mapped-journal")
        // Unmeasured kill sweeps exclude every design.
        var stores = Self.stores(mappedLost: 0)
        for index in stores.kills.indices { stores.kills[index].skipped = "a test runner" }
        #expect(StorePick.make(from: stores) == nil)
        #expect(StorePick.make(from: nil) == nil)
    }

    /// A design that broke the contract in a schedule the store explorer ran is excluded, and
    /// says so; a clean exploration excludes nothing.
    @Test func aDesignTheExplorerCaughtIsExcluded() throws {
        var stores = Self.stores(mappedLost: 0, sqliteDestroyed: 0)
        stores.explored = ["journal", "mapped-journal"].map {
            StoreExplorationSummary(
                design: $0, preemptions: 2, faultPreemptions: 1, schedules: 500, faultsInjected: 300,
                violations: $0 == "mapped-journal" ? 3 : 0, examples: [])
        }
        let pick = try #require(StorePick.make(from: stores))
        #expect(pick.design != "mapped-journal")
        #expect(pick.excluded.first { $0.design == "mapped-journal" }?.reason == "broke the contract in 3 of 500 explored schedules")
        stores.explored?[1].violations = 0
        #expect(StorePick.make(from: stores)?.design == "mapped-journal")
    }

    /// Within 2× of the cheapest p99, or under 100 µs, is a tie, which the fewer bytes per consume
    /// win; beyond both, the cheaper wins whatever it writes.
    @Test func aCostTieGoesToFewerBytesWritten() throws {
        var stores = Self.stores(mappedLost: 0, sqliteDestroyed: 0)
        func set(_ design: String, p99: Double, bytes: Double? = nil) {
            for index in stores.costs.indices where stores.costs[index].design == design && stores.costs[index].durability == "kill" {
                stores.costs[index].p99Nanoseconds = p99
                if let bytes { stores.costs[index].bytesPerConsume = bytes }
            }
        }
        set("sqlite", p99: 600_000, bytes: 12_873)
        set("journal", p99: 270_000, bytes: 48)
        set("mapped-journal", p99: 180_000, bytes: 56)
        #expect(StorePick.make(from: stores)?.design == "journal", "1.5× is a tie: fewer bytes win")
        set("mapped-journal", p99: 130_000)
        #expect(StorePick.make(from: stores)?.design == "mapped-journal", "2.08× cheaper, and over the budget, decides")
        set("mapped-journal", p99: 1_300)
        set("journal", p99: 2_700)
        #expect(StorePick.make(from: stores)?.design == "journal", "both under the 100 µs budget: a tie, fewer bytes win")
    }

    @Test func adoptionCodeNamesThePickedFactory() {
        #expect(AdoptionCode.storeExpression(.afterEveryConsume, design: "journal") == ".journal(storeURL)")
        #expect(AdoptionCode.storeExpression(.afterEveryConsume, design: "mapped-journal") == ".mappedJournal(storeURL)")
        #expect(AdoptionCode.storeExpression(.afterEveryConsume, design: "sqlite") == ".sqlite(storeURL)")
        #expect(AdoptionCode.storeExpression(.afterEveryConsume, design: "snapshot") == ".snapshot(storeURL, saving: .afterEveryConsume)")
        #expect(AdoptionCode.storeExpression(.onBackground) == ".snapshot(storeURL, saving: .onBackground)")
        #expect(AdoptionCode.storeExpression(.memory, design: "journal") == ".none")
        // Every design has a factory: a new design cannot be left out.
        for design in DedupeStore.Design.allCases {
            #expect(StorePick.factory(design.rawValue, url: "u", saving: ".manual") != nil)
        }
    }

    @Test func resultsRoundTripAndReportTheStores() throws {
        var results = Fixtures.results()
        results.stores = Self.stores()
        let data = try ResultsJSON.encode(results)
        #expect(try ResultsJSON.decode(data) == results)
        let csv = CSVReport.stores(results)
        #expect(csv.rows.count == results.stores!.costs.count + results.stores!.sweep.count)
        #expect(csv.rows.allSatisfy { $0.count == csv.header.count })
        let snapshotRow = try #require(csv.rows.first { $0[0] == "cost" && $0[1] == "snapshot" && $0[2] == "kill" })
        #expect(snapshotRow[csv.header.firstIndex(of: "two_writer_lost")!] == "9000")
        #expect(CSVReport.storeDamage(results).rows.count == 4)
        let recommendation = Recommendation.make(from: results)
        #expect(recommendation.store?.design == "journal")
        let section = MarkdownReport.storesSection(results, recommendation: recommendation, chart: true)
        #expect(section.contains("| `journal` ◀ |") && section.contains("9000/20000"))
        #expect(section.split(separator: "\n").count < 16)
        let chart = ChartReport.storeChart(results)
        #expect(chart.chart.series.map(\.name) == DedupeStore.Design.allCases.map(\.rawValue))
        // A design or durability this build does not know is refused, not left out of the tables.
        var unknown = results
        unknown.stores!.costs[1].design = "tape"
        #expect(throws: ResultsFileError.malformed("stores.costs[1]: unknown design 'tape'")) { try ResultsJSON.decode(try ResultsJSON.encode(unknown)) }
        unknown = results
        unknown.stores!.kills[0].lost = -1
        #expect(throws: ResultsFileError.self) { try ResultsJSON.decode(try ResultsJSON.encode(unknown)) }
        // Without stores: no section, empty CSVs with their headers, an empty chart.
        #expect(MarkdownReport.storesSection(Fixtures.results(), recommendation: recommendation, chart: true).isEmpty)
        #expect(CSVReport.stores(Fixtures.results()).rows.isEmpty)
    }
}
