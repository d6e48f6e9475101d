import DedupeStoreLab
import DedupeCommandLine
import DedupeHarness
import Foundation
import PushDedupe

/// The child side of `dedupe-fuzz stores`: runs a range of one design's inputs in this process
/// and reports each on stdout as it goes, so that the parent names the input a crash or a hang
/// happened in and starts the next child after it.
///
/// ```
/// begin <TAB> INDEX <TAB> MUTATIONS          first, the mutations as generated
/// mutations <TAB> INDEX <TAB> MUTATIONS      before the launches, as applied (`bit-flip@37.2`)
/// end <TAB> INDEX <TAB> OUTCOME <TAB> DETAIL after them: `ok`, or the categories, comma-separated
/// ```
///
/// Before its launches an input's file is written to `WORK/input-INDEX.store` (the parent keeps
/// it for a finding); paths in a detail are shown relative to the work directory, as `@`.
enum StoreFuzzBatch {
    static func run(seed: UInt64, design: DedupeStore.Design, indices: Range<Int>, work: URL) throws {
        var pristines: [Int: [UInt8]] = [:]
        let trial = work.appendingPathComponent("trial")
        for index in indices {
            let input = StoreFuzzInput(seed: seed, design: design, index: index)
            emit(["begin", String(index), input.mutationNames.joined(separator: " + ")])
            if pristines[input.ids] == nil {
                let directory = try StoreDesigns.makeDirectory(work, "pristine-\(input.ids)")
                pristines[input.ids] = try StoreDamageMatrix.pristineFile(design, directory: directory, ids: input.ids)
            }
            let placed = try StoreFuzzTrial.place(input, pristine: pristines[input.ids] ?? [], in: trial)
            if input.placement.holdsFile {
                try StoreDesigns.writeFile(work.appendingPathComponent("input-\(index).store").path, placed.content)
            }
            emit(["mutations", String(index), placed.mutations.joined(separator: " + ")])
            let findings = StoreFuzzVerdict.judge(placed, try StoreFuzzTrial.run(placed, in: trial))
            let outcome = findings.isEmpty ? "ok" : findings.map(\.category.rawValue).joined(separator: ",")
            let detail = findings.map(\.detail).joined(separator: " | ").replacingOccurrences(of: trial.path + "/", with: "@")
            emit(["end", String(index), outcome, detail])
        }
    }

    /// One line on stdout, written at once (the parent reads it while this process runs); each
    /// field escaped to one line without tabs.
    static func emit(_ fields: [String]) {
        let line = fields.map { OneLine.escaped($0) }.joined(separator: "\t") + "\n"
        var bytes = Array(line.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            done += count
        }
    }
}
