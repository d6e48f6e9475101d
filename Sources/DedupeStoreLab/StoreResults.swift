/// What the run measured of layer 2's stores (`Guides/Stores.md`): per design, the cost on the
/// calling thread per consume and the bytes it writes, swept over retained sizes; ids lost across
/// SIGKILL points and with two writer processes; and what each kind of damage to a small store
/// costs. Absent from runs that timed nothing.
package struct StoreResults: Codable, Sendable, Equatable {
    /// Ids the cost rows retain: the run's consumed capacity, the size the pick ships with.
    package var retained: Int
    /// Per design × durability at ``retained``, and the structure alone (design ``StoreCost/structureDesign``).
    package var costs: [StoreCost]
    /// Per design × size, kill durability: the sweep behind the chart.
    package var sweep: [StoreCost]
    /// Per design: the kill sweep.
    package var kills: [StoreKillResult]
    /// Per design: two writer processes on one file.
    package var twoWriters: [StoreTwoWriterResult]
    /// Per design × kind of damage.
    package var damage: [StoreDamageResult]
    /// Per design: the store explorer's interleavings of two or three stores on one file, with
    /// faults injected (`nil` in results written before it ran).
    package var explored: [StoreExplorationSummary]?
}

/// One design's store exploration (`StoreExplorer`): schedules run, faults injected, and the
/// contract violations found, the shortest of each kind replayable from its description.
package struct StoreExplorationSummary: Codable, Sendable, Equatable {
    package var design: String
    /// The preemption bounds: fault-free schedules, and those a fault is injected into.
    package var preemptions: Int
    package var faultPreemptions: Int
    package var schedules: Int
    package var faultsInjected: Int
    package var violations: Int
    /// The shortest violation of each kind, at most five: scenario, schedule, invariant, detail.
    package var examples: [String]
}

/// The cost of one design at one durability and retained size: each `receiveEmit(pushID:)` of a
/// fresh id timed on its own, on a deduplicator whose set (and store) already held `retained`
/// ids, so compactions run in steady state.
package struct StoreCost: Codable, Sendable, Equatable {
    /// The design id of the rows that time no store: the structure alone, `DedupeStore.none`.
    package static let structureDesign = "none"

    /// A `DedupeStore.Design` raw value, or ``structureDesign``.
    package var design: String
    /// A `StoreDurability` raw value (`kill`, `power-loss`); `kill` for the structure alone.
    package var durability: String
    package var retained: Int
    /// Consumes timed.
    package var consumes: Int
    package var medianNanoseconds: Double
    package var p99Nanoseconds: Double
    package var maxNanoseconds: Double
    package var meanNanoseconds: Double
    /// `storeBytesWritten` over the timed consumes, compactions included, per consume.
    package var bytesPerConsume: Double
    /// Compactions during the timed consumes.
    package var compactions: Int
    /// Bytes in the store's folder after the timed consumes.
    package var folderBytes: Int
    /// Median µs to build a deduplicator from the filled store (`nil` where not measured).
    package var restoreMicroseconds: Double?
}

/// One design's kill sweep: child processes consuming on one file, each killed with SIGKILL at a
/// seeded-random moment, the file restored after each.
package struct StoreKillResult: Codable, Sendable, Equatable {
    package var design: String
    /// Ids the children's sets (and the store's compaction) retain.
    package var retained: Int
    /// Children killed (each a separate process); 0 when skipped.
    package var killPoints: Int
    /// Consumes whose call returned (acknowledged on the child's stdout) and that the set still
    /// had to retain when checked.
    package var acknowledged: Int
    /// Of those, ids the restore did not know.
    package var lost: Int
    /// Repairs the restores reported (`StoreRepair`), and of those the torn tails cut.
    package var repairs: Int
    package var tornTailsCut: Int
    /// Why the sweep did not run (this process cannot start the children), or `nil`.
    package var skipped: String?
}

/// Two writer processes on one store file at once, each consuming its own distinct ids, then one
/// restore: the ids it did not know.
package struct StoreTwoWriterResult: Codable, Sendable, Equatable {
    package var design: String
    /// Consumes each writer made.
    package var consumesPerWriter: Int
    /// Ids the set retains, more than both writers consume: nothing is forgotten legitimately.
    package var retained: Int
    /// Acknowledged consumes of both writers.
    package var acknowledged: Int
    /// Acknowledged ids the restore did not know.
    package var lost: Int
    package var skipped: String?
}

/// One kind of damage to a small store of one design, each trial on a fresh copy: restore, one
/// more consume, restore again, and count.
package struct StoreDamageResult: Codable, Sendable, Equatable {
    /// The kinds of damage, by their ids in the results.
    package enum Kind: String, Codable, Sendable, CaseIterable {
        /// The last record cut at every length (a write a kill interrupted, never acknowledged).
        case tornTail = "torn-tail"
        /// One bit flipped, at every byte of the file.
        case bitFlip = "bit-flip"
        /// The file cut inside its header, at every length.
        case truncatedHeader = "truncated-header"
        /// The file marked as a newer format version.
        case newerVersion = "newer-version"
    }

    package var design: String
    package var kind: Kind
    /// Ids the store held before the damage.
    package var ids: Int
    /// Trials run; 0 where the damage does not apply (`notApplicable` says why).
    package var trials: Int
    /// Acknowledged ids the final restore did not know: the most in one trial, and in all.
    package var lostMax: Int
    package var lostTotal: Int
    /// Trials after which the damaged file was gone without a `.corrupt-N` copy, or a newer
    /// version's file had changed: must be 0.
    package var destroyed: Int
    package var notApplicable: String?
}
