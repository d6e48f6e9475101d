/// What the run measured of layer 2's stores (`Guides/Stores.md`): per design, the cost on the
/// calling thread per consume and the bytes it writes, swept over retained sizes; ids lost across
/// SIGKILL points and with two writer processes; and what each kind of damage to a small store
/// costs. Absent from runs that timed nothing.
public struct StoreResults: Codable, Sendable, Equatable {
    /// Ids the cost rows retain: the run's consumed capacity, the size the pick ships with.
    public var retained: Int
    /// Per design × durability at ``retained``, and the structure alone (design ``StoreCost/structureDesign``).
    public var costs: [StoreCost]
    /// Per design × size, kill durability: the sweep behind the chart.
    public var sweep: [StoreCost]
    /// Per design: the kill sweep.
    public var kills: [StoreKillResult]
    /// Per design: two writer processes on one file.
    public var twoWriters: [StoreTwoWriterResult]
    /// Per design × kind of damage.
    public var damage: [StoreDamageResult]
}

/// The cost of one design at one durability and retained size: each `receiveEmit(pushID:)` of a
/// fresh id timed on its own, on a deduplicator whose set (and store) already held `retained`
/// ids, so compactions run in steady state.
public struct StoreCost: Codable, Sendable, Equatable {
    /// The design id of the rows that time no store: the structure alone, `DedupeStore.none`.
    public static let structureDesign = "none"

    /// A `DedupeStore.Design` raw value, or ``structureDesign``.
    public var design: String
    /// A `StoreDurability` raw value (`kill`, `power-loss`); `kill` for the structure alone.
    public var durability: String
    public var retained: Int
    /// Consumes timed.
    public var consumes: Int
    public var medianNanoseconds: Double
    public var p99Nanoseconds: Double
    public var maxNanoseconds: Double
    public var meanNanoseconds: Double
    /// `storeBytesWritten` over the timed consumes, compactions included, per consume.
    public var bytesPerConsume: Double
    /// Compactions during the timed consumes.
    public var compactions: Int
    /// Bytes in the store's folder after the timed consumes.
    public var folderBytes: Int
    /// Median µs to build a deduplicator from the filled store (`nil` where not measured).
    public var restoreMicroseconds: Double?
}

/// One design's kill sweep: child processes consuming on one file, each killed with SIGKILL at a
/// seeded-random moment, the file restored after each.
public struct StoreKillResult: Codable, Sendable, Equatable {
    public var design: String
    /// Ids the children's sets (and the store's compaction) retain.
    public var retained: Int
    /// Children killed (each a separate process); 0 when skipped.
    public var killPoints: Int
    /// Consumes whose call returned (acknowledged on the child's stdout) and that the set still
    /// had to retain when checked.
    public var acknowledged: Int
    /// Of those, ids the restore did not know.
    public var lost: Int
    /// Repairs the restores reported (`StoreRepair`), and of those the torn tails cut.
    public var repairs: Int
    public var tornTailsCut: Int
    /// Why the sweep did not run (this process cannot start the children), or `nil`.
    public var skipped: String?
}

/// Two writer processes on one store file at once, each consuming its own distinct ids, then one
/// restore: the ids it did not know.
public struct StoreTwoWriterResult: Codable, Sendable, Equatable {
    public var design: String
    /// Consumes each writer made.
    public var consumesPerWriter: Int
    /// Ids the set retains, more than both writers consume: nothing is forgotten legitimately.
    public var retained: Int
    /// Acknowledged consumes of both writers.
    public var acknowledged: Int
    /// Acknowledged ids the restore did not know.
    public var lost: Int
    public var skipped: String?
}

/// One kind of damage to a small store of one design, each trial on a fresh copy: restore, one
/// more consume, restore again, and count.
public struct StoreDamageResult: Codable, Sendable, Equatable {
    /// The kinds of damage, by their ids in the results.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The last record cut at every length (a write a kill interrupted, never acknowledged).
        case tornTail = "torn-tail"
        /// One bit flipped, at every byte of the file.
        case bitFlip = "bit-flip"
        /// The file cut inside its header, at every length.
        case truncatedHeader = "truncated-header"
        /// The file marked as a newer format version.
        case newerVersion = "newer-version"
    }

    public var design: String
    public var kind: Kind
    /// Ids the store held before the damage.
    public var ids: Int
    /// Trials run; 0 where the damage does not apply (`notApplicable` says why).
    public var trials: Int
    /// Acknowledged ids the final restore did not know: the most in one trial, and in all.
    public var lostMax: Int
    public var lostTotal: Int
    /// Trials after which the damaged file was gone without a `.corrupt-N` copy, or a newer
    /// version's file had changed: must be 0.
    public var destroyed: Int
    public var notApplicable: String?
}
