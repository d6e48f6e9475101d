import DedupeHarness
import PushDedupe

/// One input of `dedupe-fuzz stores`: a pristine store of ``ids`` consumed ids of one design,
/// damaged by one to three seeded mutations — byte edits of its file, and at most one change of
/// what sits at the store's path.
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
        switch placement {
        case .directory, .danglingSymlink, .fifo:
            edits = []
        case .symlinkToStore, .modeZero:
            edits = (0..<random.below(3)).map { _ in StoreEdit.random(&random, design: design) }
        case .file:
            edits = (0..<(1 + random.below(3))).map { _ in StoreEdit.random(&random, design: design) }
        }
    }

    /// The mutations as generated, for a row of `inputs.tsv` before the file exists.
    var mutationNames: [String] {
        edits.map(\.name) + (placement == .file ? [] : [placement.rawValue])
    }
}
