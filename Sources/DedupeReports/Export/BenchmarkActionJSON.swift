import DedupeDecision
import DedupeHarness
import Foundation

/// The headline's figures in github-action-benchmark's `customSmallerIsBetter` format, so a CI
/// that already charts benchmarks over time charts these too (`Guides/Reports.md` § Charting in
/// CI). One entry per row of the headline's table and figure: the cost per push on the calling
/// thread, store included (the figure the pick ranks), and the structures' ns/event.
///
/// ```json
/// [{"name": "two-layer/…/push-id/after-every-consume: ns per push", "unit": "ns", "value": 1510.2, "range": "± 12.3",
///   "extra": "ns/event 26.4; false drops 13/7045; missed duplicates 215/3329"}]
/// ```
///
/// `range` is half the spread between the case's fastest and slowest timing fork, so a chart
/// shows how far a point moves between processes of one run.
package enum BenchmarkActionJSON {
    package static let fileName = "benchmark-action.json"

    /// One entry of the format: every field the action reads.
    package struct Entry: Codable, Equatable, Sendable {
        package var name: String
        package var unit: String
        package var value: Double
        package var range: String?
        package var extra: String?
    }

    /// The entries for the headline's rows: the published code as it ships, then every pipeline
    /// as the rule ranks it.
    package static func entries(_ recommendation: Recommendation) -> [Entry] {
        var rows = recommendation.assessments.map(\.candidate)
        if let published = recommendation.published(), !rows.contains(where: { $0.choice == published.choice }) {
            rows.insert(published, at: 0)
        }
        let speed = recommendation.speed
        var entries: [Entry] = []
        for candidate in rows {
            let extra = "false drops \(candidate.falseDrops)/\(candidate.newEvents); missed duplicates "
                + "\(candidate.missedDuplicates)/\(candidate.dupEvents)"
            if let perPush = speed.nanosecondsPerPush(candidate) {
                entries.append(Entry(
                    name: "\(candidate.label): ns per push", unit: "ns", value: perPush,
                    range: range(candidate.nanosecondsPerEventByFork), extra: extra))
            }
            if let structure = candidate.nanosecondsPerEvent {
                entries.append(Entry(
                    name: "\(candidate.label): ns per event", unit: "ns", value: structure,
                    range: range(candidate.nanosecondsPerEventByFork), extra: extra))
            }
        }
        return entries
    }

    /// The file: the entries as a JSON array, keys sorted, ending in a newline.
    package static func render(_ recommendation: Recommendation) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(entries(recommendation)) + Data("\n".utf8)
    }

    /// `± 1.23`: half the spread between the fastest and slowest fork.
    static func range(_ forks: [Double]?) -> String? {
        guard let forks, let low = forks.min(), let high = forks.max() else { return nil }
        return "± \(NumberText.significant((high - low) / 2))"
    }
}
