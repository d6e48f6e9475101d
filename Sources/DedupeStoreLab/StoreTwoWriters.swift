import DedupeMeasurement
import Foundation
import PushDedupe

/// Two writer processes on one store file at once (the app and its Notification Service
/// Extension in one App Group), each consuming its own distinct ids (`a-…`, `b-…`) and
/// acknowledging each; then one restore in-process counts the acknowledged ids it does not know.
/// The set retains more than both write together, so nothing is forgotten legitimately.
enum StoreTwoWriters {
    static func run(
        _ design: DedupeStore.Design, writer: StoreWriterCommand, consumesPerWriter: Int, directory: URL
    ) throws -> StoreTwoWriterResult {
        let url = StoreDesigns.file(in: directory)
        let retained = 2 * consumesPerWriter + 1_000
        let writers = try ["a-", "b-"].map { prefix throws(MeasurementError) in
            try StoreWriterProcess(
                writer: writer,
                request: StoreWriterRequest(
                    design: design.rawValue, durability: StoreDurability.processKill.rawValue, path: url.path,
                    retained: retained, prefix: prefix, start: 0, count: consumesPerWriter),
                errorFile: directory.appendingPathComponent("stderr-\(prefix)").path)
        }
        // Both pipes drain at once, so neither writer waits on a full pipe while the other runs.
        let drained = DispatchSemaphore(value: 0)
        let thread = Thread {
            writers[1].drain()
            drained.signal()
        }
        thread.start()
        writers[0].drain()
        drained.wait()
        for writer in writers {
            let status = writer.wait()
            guard status == 0 else {
                throw MeasurementError.stageFailed("stores: two writers on \(design.rawValue): a writer failed with status \(status): \(writer.errorLine)")
            }
        }
        let dedupe = try StoreDesigns.deduplicator(retained: retained, store: StoreDesigns.store(design, at: url, durability: .processKill))
        let consumed = dedupe.pipeline.consumed
        var acknowledged = 0
        var lost = 0
        for (prefix, writer) in zip(["a-", "b-"], writers) {
            for index in writer.acknowledged {
                acknowledged += 1
                if !consumed.contains(EnvelopeID(token: prefix + String(index))) { lost += 1 }
            }
        }
        return StoreTwoWriterResult(
            design: design.rawValue, consumesPerWriter: consumesPerWriter, retained: retained, acknowledged: acknowledged, lost: lost)
    }
}
