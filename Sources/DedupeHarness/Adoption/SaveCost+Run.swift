import Foundation
import PushDedupe

/// What saving one consumed set after every consume costs, at the capacity the run sized it
/// with, filled with the horizon's ids (or to its capacity, if smaller): the snapshot a phone
/// writes once the set holds what it must remember, the figure an app pays per push with
/// `saving: .afterEveryConsume`, beside the nanoseconds of its `consume`.
public struct SaveCostSummary: Codable, Sendable, Equatable {
    /// The consumed set's catalogue id.
    public var consumed: String
    /// Ids the set held at every save.
    public var ids: Int
    /// Bytes of each snapshot written.
    public var snapshotBytes: Int
    /// Saves timed.
    public var saves: Int
    public var medianMicroseconds: Double
    public var p99Microseconds: Double
}

extension SaveCost {
    /// Times `saves` saves of every snapshottable consumed set the cases name, each at the
    /// parameters its first case ran with and holding `horizonIDs` ids (at most its capacity), in
    /// a temporary directory removed afterwards.
    ///
    /// - Throws: `HarnessError.stageFailed` naming the set when a save fails (a full disk).
    static func measureRun(
        _ results: [CaseResult], entries: [ConsumedSetEntry], horizonIDs: Int, saves: Int
    ) throws(HarnessError) -> [SaveCostSummary] {
        var parameters: [String: CaseParameters] = [:]
        var order: [String] = []
        for result in results where result.mode.usesConsumedSet {
            guard let id = result.consumed, parameters[id] == nil else { continue }
            parameters[id] = result.parameters
            order.append(id)
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dedupe-save-cost-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .stageFailed("save cost: cannot create \(directory.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: directory) }
        var summaries: [SaveCostSummary] = []
        for id in order {
            guard let entry = entries.first(where: { $0.id == id }), entry.isSnapshottable,
                  let type = entry.type as? any (SnapshottableConsumedSet & Sendable).Type, let caseParameters = parameters[id]
            else { continue }
            let configuration = entry.defaultConfiguration ?? caseParameters.consumedConfiguration
            do {
                let ids = min(configuration.capacity, max(1, horizonIDs))
                // A filter's snapshot grows with its capacity, not its ids: a huge safety factor
                // must not write gigabytes, so the saves stop at 64 MiB written (5 at least).
                let probe = try measure(type, configuration: configuration, filledTo: ids, saves: 1, directory: directory)
                let affordable = min(saves, max(5, (64 << 20) / max(1, probe.snapshotBytes)))
                let result = try measure(type, configuration: configuration, filledTo: ids, saves: affordable, directory: directory)
                summaries.append(SaveCostSummary(
                    consumed: id, ids: result.ids, snapshotBytes: result.snapshotBytes, saves: affordable,
                    medianMicroseconds: result.median, p99Microseconds: result.p99))
            } catch {
                throw .stageFailed("save cost of \(id): \(error)")
            }
        }
        return summaries
    }
}
