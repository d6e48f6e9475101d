import DedupeStoreLab
import DedupeHarness
import PushDedupe

/// One input of `dedupe-fuzz stores`: a pristine store of ``ids`` consumed ids of one design,
/// damaged by one to three seeded mutations — byte edits of its file, at most one change of
/// what sits at the store's path, and at most one transient fault of the first launch's store.
///
/// A pure function of the round's seed, the design and the index: the edits hold raw random
/// numbers that ``StoreEdit/apply(to:design:ghost:)`` resolves against the file's bytes, so
/// generating an input needs no store file.
struct StoreFuzzInput: Equatable, Sendable {
    /// What sits at the store's path when the first deduplicator opens it.
    enum Placement: String, Equatable, Sendable {
        /// The (edited) file.
        case file
        /// The (edited) file with mode 000 (readable anyway when the fuzzer runs as root).
        case modeZero = "mode-000"
        /// A directory holding one file.
        case directory
        /// A symbolic link to a name that does not exist.
        case danglingSymlink = "dangling-symlink"
        /// A symbolic link to the (edited) file in another directory.
        case symlinkToStore = "symlink-to-store"
        /// A named pipe, which blocks a reader until a writer opens it.
        case fifo

        /// Whether the store's bytes are reachable through the path.
        var holdsFile: Bool { self == .file || self == .modeZero || self == .symlinkToStore }
    }

    var design: DedupeStore.Design
    var index: Int
    /// `d-0` … `d-(ids − 1)` were consumed, in order, before the file was damaged.
    var ids: Int
    var placement: Placement
    var edits: [StoreEdit]
    /// A file-system step of the first launch's store that fails with `EIO` (`StoreFaults`), the
    /// first `times` times: a read the restore must wait out, or a write in the middle of a repair.
    var fault: (step: StoreFaults.Step, times: Int)?

    /// The id of the record a mapped journal's ghost edit writes past the count: never consumed.
    var ghostToken: String { "ghost-\(index)" }

    /// Input `index` of `design` for the round's `seed`.
    init(seed: UInt64, design: DedupeStore.Design, index: Int) {
        var designSeed = FuzzDigest()
        designSeed.add(design.rawValue)
        var random = FuzzRandom(seed: seed ^ designSeed.value, index: index)
        self.design = design
        self.index = index
        ids = 1 + random.below(StoreDamageMatrix.ids)
        let roll = random.below(100)
        placement = switch roll {
        case 0..<4: .fifo
        case 4..<9: .directory
        case 9..<15: .danglingSymlink
        case 15..<22: .symlinkToStore
        case 22..<28: .modeZero
        default: .file
        }
        fault = placement.holdsFile && random.chance(3, in: 20)
            ? (random.pick([.open, .read, .write, .rename, .truncate, .map, .lock]), 1 + random.below(2)) : nil
        // One to three mutations in all.
        let others = (placement == .file ? 0 : 1) + (fault == nil ? 0 : 1)
        switch placement {
        case .directory, .danglingSymlink, .fifo:
            edits = []
        case .file, .symlinkToStore, .modeZero:
            let least = others == 0 ? 1 : 0
            edits = (0..<(least + random.below(4 - others - least))).map { _ in StoreEdit.random(&random, design: design) }
        }
    }

    static func == (left: StoreFuzzInput, right: StoreFuzzInput) -> Bool {
        left.design == right.design && left.index == right.index && left.ids == right.ids && left.placement == right.placement
            && left.edits == right.edits && left.fault?.step == right.fault?.step && left.fault?.times == right.fault?.times
    }

    /// The mutations as generated, for a row of `inputs.tsv` before the file exists.
    var mutationNames: [String] {
        edits.map(\.name) + (placement == .file ? [] : [placement.rawValue]) + (fault.map { ["fault-\($0.step)x\($0.times)"] } ?? [])
    }
}
