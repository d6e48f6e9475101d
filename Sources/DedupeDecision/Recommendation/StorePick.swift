import DedupeStoreLab
import DedupeHarness
import PushDedupe

/// The store the recommendation ships, chosen by measurement: among the designs that lost no
/// acknowledged id across the kill sweep, none with two writer processes, destroyed no damaged
/// file, and broke the contract in no schedule the store explorer ran, the cheapest calling-thread p99 per consume at the pick's retained size (kill
/// durability). A design within ``costTieFactor`` of the cheapest, or under ``p99Budget``, ties
/// with it, and the tie goes to fewer bytes written per consume (flash wear), then the lower p99,
/// then the name. A pure function of the results.
package struct StorePick: Sendable, Equatable {
    /// A design the rule excluded, and why, in one clause.
    package struct Exclusion: Sendable, Equatable {
        package var design: String
        package var reason: String
    }

    /// How much cheaper a design's p99 must be to decide: two designs a few system calls apart
    /// swap places between runs of one build on one machine (the `mapped-journal` p99 went from
    /// 0.68× to 1.05× the `journal`'s between two default runs here), and more across kernels and
    /// file systems, so a lead under 2× is no reason to choose.
    package static let costTieFactor = 2.0
    /// A p99 a push never notices on the calling thread: 100 µs, the target for the
    /// picked store (a 60 Hz frame is 16.7 ms). Designs under it tie whatever their ratio.
    package static let p99Budget = 100_000.0

    /// The rule, in one sentence, for the report.
    package static let ruleText = "among the designs that lose 0 acknowledged ids across the kill sweep and 0 with two writer "
        + "processes, destroy no damaged file, and break the contract in no explored schedule, the lowest calling-thread p99 per consume at the pick's retained size "
        + "(kill durability); designs within 2× of it, or under 100 µs, tie, and the tie goes to fewer bytes written per consume"

    /// The picked design's id (a `DedupeStore.Design` raw value).
    package var design: String
    /// Its cost at the pick's size, kill durability.
    package var cost: StoreCost
    /// The structure alone at that size (`DedupeStore.none`), when measured.
    package var structure: StoreCost?
    /// Designs the rule excluded, in design order.
    package var excluded: [Exclusion]

    /// The pick from `stores`, or `nil` when no design passes (or nothing was measured).
    package static func make(from stores: StoreResults?) -> StorePick? {
        guard let stores else { return nil }
        let kill = StoreDurability.processKill.rawValue
        let rows = stores.costs.filter { $0.design != StoreCost.structureDesign && $0.durability == kill && $0.retained == stores.retained }
        var excluded: [Exclusion] = []
        var passing: [StoreCost] = []
        for row in rows {
            if let reason = exclusion(row.design, stores) {
                excluded.append(Exclusion(design: row.design, reason: reason))
            } else {
                passing.append(row)
            }
        }
        guard let cheapest = passing.map(\.p99Nanoseconds).min(),
              let best = passing.filter({ $0.p99Nanoseconds <= max(cheapest * costTieFactor, p99Budget) }).min(by: {
                  ($0.bytesPerConsume, $0.p99Nanoseconds, $0.design) < ($1.bytesPerConsume, $1.p99Nanoseconds, $1.design)
              })
        else { return nil }
        return StorePick(
            design: best.design, cost: best,
            structure: stores.costs.first { $0.design == StoreCost.structureDesign && $0.retained == stores.retained },
            excluded: excluded)
    }

    /// Why `design` cannot be picked, or `nil` when it passes.
    package static func exclusion(_ design: String, _ stores: StoreResults) -> String? {
        var reasons: [String] = []
        if let kill = stores.kills.first(where: { $0.design == design }) {
            if let skipped = kill.skipped {
                reasons.append("kill sweep not measured (\(skipped))")
            } else if kill.lost > 0 {
                reasons.append("lost \(kill.lost) of \(kill.acknowledged) acknowledged ids across \(kill.killPoints) SIGKILL points")
            }
        } else {
            reasons.append("no kill sweep")
        }
        if let two = stores.twoWriters.first(where: { $0.design == design }) {
            if let skipped = two.skipped {
                if !reasons.contains(where: { $0.contains(skipped) }) { reasons.append("two writers not measured (\(skipped))") }
            } else if two.lost > 0 {
                reasons.append("lost \(two.lost) of \(two.acknowledged) acknowledged ids with two writer processes")
            }
        } else {
            reasons.append("no two-writer check")
        }
        let destroyed = stores.damage.filter { $0.design == design }.reduce(0) { $0 + $1.destroyed }
        if destroyed > 0 { reasons.append("destroyed \(destroyed) damaged file(s)") }
        if let explored = stores.explored?.first(where: { $0.design == design }), explored.violations > 0 {
            reasons.append("broke the contract in \(explored.violations) of \(explored.schedules) explored schedules")
        }
        return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
    }

    /// `DedupeStore`'s factory for the design, with `url` and, for the snapshot design, `saving`.
    package static func factory(_ design: String, url: String, saving: String) -> String? {
        switch DedupeStore.Design(rawValue: design) {
        case .snapshot?: ".snapshot(\(url), saving: \(saving))"
        case .journal?: ".journal(\(url))"
        case .mappedJournal?: ".mappedJournal(\(url))"
        case .sqlite?: ".sqlite(\(url))"
        case nil: nil
        }
    }
}
