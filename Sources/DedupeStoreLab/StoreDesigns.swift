import DedupeMeasurement
import Foundation
import PushDedupe

/// The store designs the harness measures, and the one deduplicator shape every store
/// measurement drives: `HashDequeWindow` + `FIFOSet` (the pick's pair), keyed by push ids.
package enum StoreDesigns {
    /// The deduplicator every store measurement builds.
    package typealias Deduplicator = SharedDeduplicator<HashDequeWindow, FIFOSet>

    /// `design`'s store at `url`, its file-system steps failed as `faults` says.
    package static func store(_ design: DedupeStore.Design, at url: URL, durability: StoreDurability, faults: StoreFaults? = nil) -> DedupeStore {
        switch design {
        case .snapshot: .snapshot(url, saving: .afterEveryConsume, durability: durability, faults: faults)
        case .journal: .journal(url, durability: durability, faults: faults)
        case .mappedJournal: .mappedJournal(url, durability: durability, faults: faults)
        case .sqlite: .sqlite(url, durability: durability, faults: faults)
        }
    }

    /// A deduplicator retaining `retained` ids on `store`, restored from it.
    package static func deduplicator(retained: Int, store: DedupeStore) throws(ConfigurationError) -> Deduplicator {
        try Deduplicator(window: HashDequeWindow(preset: .compact), consumed: ConsumedSetConfiguration(capacity: retained), store: store)
    }

    /// The store's file in `directory`.
    package static func file(in directory: URL) -> URL { directory.appendingPathComponent("consumed.store") }

    /// Bytes of every file in `directory`.
    static func folderBytes(_ directory: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// Writes `bytes` as the file at `path` with plain `write(2)`s: Foundation's `Data.write`
    /// and `FileManager.copyItem` flush each file, a few milliseconds a trial that a kill or a
    /// restore never needs.
    package static func writeFile(_ path: String, _ bytes: [UInt8]) throws(MeasurementError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .stageFailed("stores: cannot create \(path): errno \(errno)") }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .stageFailed("stores: cannot write \(path): errno \(errno)") }
            done += count
        }
    }

    /// Copies the file at `source` to `target` (``writeFile(_:_:)``).
    static func copyFile(_ source: String, to target: String) throws(MeasurementError) {
        guard let data = FileManager.default.contents(atPath: source) else { throw .stageFailed("stores: cannot read \(source)") }
        try writeFile(target, Array(data))
    }

    /// A new empty directory under `parent`.
    package static func makeDirectory(_ parent: URL, _ name: String) throws(MeasurementError) -> URL {
        let directory = parent.appendingPathComponent(name)
        do {
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .stageFailed("stores: cannot create \(directory.path): \(error.localizedDescription)")
        }
        return directory
    }
}
