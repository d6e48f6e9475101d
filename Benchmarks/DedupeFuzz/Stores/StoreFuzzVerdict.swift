import PushDedupe

/// How `dedupe-fuzz stores` judges one input against the store contract (`Guides/Stores.md`
/// § The contract). An input is *ok* or has one finding or more, each of a ``Category``.
enum StoreFuzzVerdict {
    enum Category: String, CaseIterable, Sendable {
        /// The child process died of a signal or exited with an error during the input.
        case crash
        /// The input ran past the timeout.
        case hang
        /// The relaunch knows an id nobody consumed.
        case inventedID = "invented-id"
        /// An acknowledged id whose record was undamaged (``undamagedRecords(_:)``) is unknown
        /// after the relaunch.
        case lostID = "lost-id"
        /// What the first launch could not read cleanly (at init or at a retry) is gone, or a
        /// valid newer version's file or a non-regular object at the path changed.
        case unreadFileModified = "unread-file-modified"
        /// Two or more copies aside hold the same bytes.
        case copiesPiledUp = "copies-piled-up"
        /// The push consumed after a restore that reported the store usable, and written
        /// without an error, is unknown after the relaunch.
        case newPushLost = "new-push-lost"
        /// A regular file that does not state a newer version was left untouched (so the app never
        /// persists again), or anything else was left untouched as a newer version.
        case misreadVersion = "misread-version"
    }

    struct Finding: Equatable, Sendable {
        var category: Category
        var detail: String
    }

    /// The findings of `observation`, in category order; empty when the input is ok.
    static func judge(_ placed: StoreFuzzTrial.Placed, _ observation: StoreFuzzTrial.Observation) -> [Finding] {
        var findings: [Finding] = []
        let design = placed.input.design
        let holdsFile = placed.input.placement.holdsFile
        let newer = holdsFile && StoreFileLayout.isValidNewerVersion(design, placed.content, pristine: placed.pristine)
        let statesNewer = holdsFile && StoreFileLayout.statesNewerVersion(design, placed.content)
        let retried = observation.settledOutcome == observation.firstOutcome ? "" : " (after retries: \(observation.settledOutcome))"
        let first = "first restore: \(observation.firstOutcome)" + retried

        // The ghost is a record a consume wrote before its count: invented only where a count
        // word that holds leaves it out. With the count damaged, no reader of this format can tell
        // it from a committed record, and salvaging every valid record keeps what is undamaged.
        let ghostCommitted = holdsFile && design == .mappedJournal
            && StoreFileLayout.mappedCountWord(placed.content).map { $0 > placed.input.ids } ?? true
        let accounted = observation.knownConsumed.count + (observation.knowsNew ? 1 : 0)
            + (observation.knowsGhost && ghostCommitted ? 1 : 0)
        if observation.knowsGhost && !ghostCommitted {
            findings.append(Finding(category: .inventedID, detail: "the relaunch knows \(placed.input.ghostToken), a record past the committed count; \(first)"))
        } else if observation.knownCount > accounted {
            findings.append(Finding(
                category: .inventedID,
                detail: "the relaunch holds \(observation.knownCount - accounted) id(s) nobody consumed; \(first)"))
        }

        let lost = undamagedRecords(placed).subtracting(observation.knownConsumed).sorted()
        if !lost.isEmpty {
            let names = lost.prefix(4).map { StoreFuzzTrial.consumedToken($0) }.joined(separator: ",") + (lost.count > 4 ? ",…" : "")
            findings.append(Finding(
                category: .lostID, detail: "\(lost.count) id(s) with undamaged records unknown (\(names)); \(first); relaunch: \(observation.secondOutcome)"))
        }

        if let problem = modification(placed, observation, newer: newer) {
            findings.append(Finding(category: .unreadFileModified, detail: "\(problem); \(first)"))
        }

        var copies: [[UInt8]: Int] = [:]
        for case .file(let bytes) in observation.copiesAside.values { copies[bytes, default: 0] += 1 }
        if let most = copies.values.max(), most > 1 {
            findings.append(Finding(
                category: .copiesPiledUp, detail: "\(most) copies aside of the same bytes (\(observation.copiesAside.count) in all); \(first)"))
        }

        if reportsUsable(observation.firstOutcome), observation.newAcknowledged, !observation.knowsNew {
            findings.append(Finding(category: .newPushLost, detail: "\(first); relaunch: \(observation.secondOutcome)"))
        }

        // Left untouched is right for a newer version's file, and for anything but a regular file
        // at the path (a symbolic link is never followed, even to a store).
        if case .leftUntouched(let error) = observation.firstOutcome {
            let regularFile = placed.input.placement == .file || placed.input.placement == .modeZero
            let right = error.kind == .notARegularFile ? !regularFile : statesNewer
            if !right {
                findings.append(Finding(category: .misreadVersion, detail: "\(regularFile ? "a file of no newer version" : placed.object.summary) left untouched; \(first)"))
            }
        }
        return findings
    }

    /// The `k` of every consumed `d-k` whose record was undamaged, which the relaunch must know.
    /// Conservative, per design:
    /// - nothing when the path holds no readable regular file (a symbolic link is never followed,
    ///   even to a store), or one that states a newer version (left untouched by contract);
    /// - journal: the record's 24 bytes are unchanged at their offset (records sit on a fixed
    ///   grid after the header and carry their own checksums; a damaged header is salvaged);
    /// - mapped journal: the same, and when the count word's check holds (within the slots the
    ///   file has room for), the record is below that count: the word is the commit point, so a
    ///   valid lower count uncommits it;
    /// - snapshot and SQLite: every byte of the file is unchanged (a snapshot's one checksum
    ///   covers every byte; SQLite's reader may need any page).
    static func undamagedRecords(_ placed: StoreFuzzTrial.Placed) -> Set<Int> {
        let design = placed.input.design
        let content = placed.content
        guard placed.input.placement.holdsFile, placed.input.placement != .symlinkToStore, placed.readable,
              !StoreFileLayout.statesNewerVersion(design, content) else { return [] }
        let all = 0..<placed.input.ids
        switch design {
        case .snapshot, .sqlite:
            return content == placed.pristine ? Set(all) : []
        case .journal, .mappedJournal:
            let committed = design == .mappedJournal ? StoreFileLayout.mappedCountWord(content) : nil
            return Set(all.filter { k in
                guard let start = StoreFileLayout.recordOffset(design, k) else { return false }
                let end = start + StoreFileLayout.recordSize
                return end <= content.count && end <= placed.pristine.count && content[start..<end] == placed.pristine[start..<end]
                    && k < (committed ?? Int.max)
            })
        }
    }

    /// Whether a first restore's outcome tells the app the store works: it read the file, found
    /// none, or moved an unusable one aside and started afresh.
    static func reportsUsable(_ outcome: RestoreOutcome) -> Bool {
        switch outcome {
        case .restored, .migrated, .nothingStored, .movedAside: true
        case .notPersisted, .pending, .leftUntouched: false
        }
    }

    /// Whether the first launch read the file as it was, at init or at a retry: restored (or
    /// found none) with no repair but a torn tail cut (a write that never returned).
    static func readCleanly(_ observation: StoreFuzzTrial.Observation) -> Bool {
        let repairsAreTornTails = observation.firstRepairs.allSatisfy { if case .truncatedTornTail = $0 { true } else { false } }
        switch observation.settledOutcome {
        case .restored, .migrated, .nothingStored: return repairsAreTornTails
        case .notPersisted, .pending, .leftUntouched, .movedAside: return false
        }
    }

    /// Why the input's file or object counts as modified, or `nil`:
    /// - a valid newer version's file must be at its place byte for byte;
    /// - a directory, a fifo or a dangling symbolic link must be at the path or in a copy aside;
    /// - a file not read cleanly must be at the path (or at the link's target), or in a copy
    ///   aside; a journal whose first restore waited may have appended to it first
    ///   (``appended(to:giving:design:)``).
    static func modification(_ placed: StoreFuzzTrial.Placed, _ observation: StoreFuzzTrial.Observation, newer: Bool) -> String? {
        let placement = placed.input.placement
        let atPlace = placement == .symlinkToStore ? observation.targetAfter : observation.pathAfter
        if newer {
            return atPlace == .file(placed.content) ? nil : "a newer version's file changed (now \(atPlace?.summary ?? "nothing"))"
        }
        guard placement.holdsFile else {
            let kept = observation.pathAfter == placed.object || observation.copiesAside.values.contains(placed.object)
            return kept ? nil : "the \(placed.object.summary) at the path is gone (now \(observation.pathAfter?.summary ?? "nothing"))"
        }
        guard !readCleanly(observation) else { return nil }
        // While the first restore waited, a journal may have appended before a retry moved or
        // copied the file aside.
        let waited = if case .pending = observation.firstOutcome { true } else { false }
        let kept = ([atPlace, observation.pathAfter] + observation.copiesAside.values.map(Optional.some)).contains { object in
            guard case .file(let bytes) = object else { return false }
            return bytes == placed.content || (waited && appended(to: placed.content, giving: bytes, design: placed.input.design))
        }
        if kept { return nil }
        return "the \(placed.content.count) B not read cleanly are neither at the path nor in a copy aside (path: \(observation.pathAfter?.summary ?? "nothing"), \(observation.copiesAside.count) copies)"
    }

    /// Whether `after` is `original` with records appended, as a journal may while its restore
    /// waits: the journal's whole records kept (a torn tail may be cut first); the mapped
    /// journal's bytes kept but for its count word and the slots past its committed count.
    static func appended(to original: [UInt8], giving after: [UInt8], design: DedupeStore.Design) -> Bool {
        switch design {
        case .journal:
            let header = StoreFileLayout.journalHeaderSize
            let whole = original.count < header ? original.count : original.count - (original.count - header) % StoreFileLayout.recordSize
            return after.starts(with: original.prefix(whole))
        case .mappedJournal:
            let count = StoreFileLayout.mappedCountOffset..<(StoreFileLayout.mappedCountOffset + 8)
            let free = StoreFileLayout.mappedCommittedCount(original).map { StoreFileLayout.mappedHeaderSize + $0 * StoreFileLayout.recordSize }
            return after.count >= original.count
                && original.indices.allSatisfy { count.contains($0) || $0 >= (free ?? Int.max) || after[$0] == original[$0] }
        case .snapshot, .sqlite:
            return false
        }
    }
}
