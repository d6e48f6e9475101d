import DedupeMeasurement
import Foundation
import PushDedupe

/// How much of the store measurement a run makes (``RunSizing/stores``).
package struct StoreSizing: Sendable, Equatable {
    /// Retained sizes of the sweep (kill durability).
    package var sizes: [Int]
    /// Seconds of timed consumes per cost row at the pick's size, and per sweep point.
    package var secondsPerCost: Double
    package var secondsPerSweepPoint: Double
    /// Deduplicators built from each filled store to time the restore.
    package var restores: Int
    /// SIGKILL points per design, and the ids their children's sets retain.
    package var killPoints: Int
    package var killRetained: Int
    /// Consumes of each of the two writers.
    package var twoWriterConsumes: Int
    /// Bit flips per design at most: every byte of a file this small or smaller, else evenly
    /// spaced (a SQLite database of 16 ids is four or more 4 KiB pages).
    package var maximumBitFlips: Int
    /// The store explorer's bounds: preemptions per fault-free schedule, per faulted schedule,
    /// and the faults injected at every step.
    package var explorerPreemptions: Int
    package var explorerFaultPreemptions: Int
    package var explorerFaults: [StoreExplorer.FaultKind]

    /// The default run: the phone-sized sets, 1,000 kill points and 10,000 consumes per writer.
    package static let full = StoreSizing(
        sizes: [100, 300, 1_000, 1_750, 3_000, 10_000, 30_000, 100_000], secondsPerCost: 1.5, secondsPerSweepPoint: 0.6,
        restores: 9, killPoints: 1_000, killRetained: 64, twoWriterConsumes: 10_000, maximumBitFlips: 4_096,
        explorerPreemptions: 2, explorerFaultPreemptions: 1, explorerFaults: StoreExplorer.FaultKind.allCases)

    /// CI mode: fewer sizes, kill points and consumes, every 16th byte or so flipped.
    package static let quick = StoreSizing(
        sizes: [100, 1_000, 10_000], secondsPerCost: 0.4, secondsPerSweepPoint: 0.15, restores: 5, killPoints: 100,
        killRetained: 64, twoWriterConsumes: 1_000, maximumBitFlips: 512,
        explorerPreemptions: 1, explorerFaultPreemptions: 0, explorerFaults: [.kill, .eio])
}

/// Layer 2's stores as a measured layer: every ``StoreResults`` figure, for every design.
package enum StoreMeasurement {
    /// Measures every design: costs at `retained` (both durabilities, and the structure alone),
    /// the size sweep, and, when a `writer` child can be started, the kill sweep and
    /// the two writers; then the damage matrix. Files go to a temporary directory removed
    /// afterwards.
    package static func run(
        retained: Int, sizing: StoreSizing, seed: UInt64, writer: StoreWriterCommand?, progress: (String) -> Void = { _ in }
    ) throws(MeasurementError) -> StoreResults {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("dedupe-stores-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        let parent = try StoreDesigns.makeDirectory(root, "costs")
        defer { try? FileManager.default.removeItem(at: root) }
        let designs = DedupeStore.Design.allCases
        let retained = max(1, retained)

        progress("store costs at \(retained) ids")
        var costs = [try StoreCostMeasurement.measure(
            nil, durability: .processKill, retained: retained,
            budget: .steadyState(retained: retained, seconds: sizing.secondsPerCost, restores: 0), parent: parent)]
        for design in designs {
            for durability in StoreDurability.allCases {
                costs.append(try StoreCostMeasurement.measure(
                    design, durability: durability, retained: retained,
                    budget: .steadyState(retained: retained, seconds: sizing.secondsPerCost, restores: sizing.restores), parent: parent))
            }
        }

        progress("store sweep")
        var sweep: [StoreCost] = []
        for size in sizing.sizes {
            for design in designs {
                if size == retained, var row = costs.first(where: { $0.design == design.rawValue && $0.durability == StoreDurability.processKill.rawValue }) {
                    row.restoreMicroseconds = nil
                    sweep.append(row)
                    continue
                }
                sweep.append(try StoreCostMeasurement.measure(
                    design, durability: .processKill, retained: size,
                    budget: .steadyState(retained: size, seconds: sizing.secondsPerSweepPoint, restores: 0), parent: parent))
            }
        }

        progress("store kill sweep and two writers")
        let (kills, twoWriters) = try survival(designs, sizing: sizing, seed: seed, writer: writer, root: root)

        progress("store damage matrix")
        var damage: [StoreDamageResult] = []
        for design in designs {
            do {
                let directory = try StoreDesigns.makeDirectory(root, "damage-\(design.rawValue)")
                let size = try StoreDamageMatrix.pristineFile(design, directory: try StoreDesigns.makeDirectory(directory, "size")).count
                let stride = size <= sizing.maximumBitFlips ? 1 : (size + sizing.maximumBitFlips - 1) / sizing.maximumBitFlips
                damage += try StoreDamageMatrix.run(design, directory: directory, bitFlipStride: stride)
            } catch let error as MeasurementError {
                throw error
            } catch {
                throw .stageFailed("stores: damage of \(design.rawValue): \(error)")
            }
        }
        progress("store explorer")
        let explored = try explore(designs, sizing: sizing)
        progress("stores done")
        return StoreResults(
            retained: retained, costs: costs, sweep: sweep, kills: kills, twoWriters: twoWriters, damage: damage, explored: explored)
    }

    /// The store explorer over every design, two designs at a time (nothing here is timed, and
    /// each exploration is deterministic whatever runs beside it).
    static func explore(_ designs: [DedupeStore.Design], sizing: StoreSizing) throws(MeasurementError) -> [StoreExplorationSummary] {
        let settings = StoreExplorer.Settings(
            preemptions: sizing.explorerPreemptions, faultPreemptions: sizing.explorerFaultPreemptions, faults: sizing.explorerFaults)
        return try twoAtATime(designs, stage: "explorer") { design in
            let result = try StoreExplorer.explore(.design(design), settings: settings)
            return StoreExplorationSummary(
                design: design.rawValue, preemptions: settings.preemptions, faultPreemptions: settings.faultPreemptions,
                schedules: result.schedules, faultsInjected: result.faultsInjected, violations: result.violations.count,
                examples: result.shortestViolations.prefix(5).map(\.description))
        }
    }

    /// `work` for every design, two designs at a time, results in design order: the first
    /// failure is thrown, an untyped one as a `stage` failure naming the design.
    private static func twoAtATime<Outcome>(
        _ designs: [DedupeStore.Design], stage: String, _ work: @escaping @Sendable (DedupeStore.Design) throws -> Outcome
    ) throws(MeasurementError) -> [Outcome] {
        let lock = NSLock()
        // One per design, each written by its task before `group.wait()` returns.
        nonisolated(unsafe) var outcomes = [Result<Outcome, MeasurementError>](
            repeating: .failure(.stageFailed("stores: no \(stage) outcome")), count: designs.count)
        let queue = DispatchQueue(label: "stores.\(stage)", attributes: .concurrent)
        let group = DispatchGroup()
        let slots = DispatchSemaphore(value: 2)
        for (index, design) in designs.enumerated() {
            slots.wait()
            queue.async(group: group) {
                defer { slots.signal() }
                let outcome: Result<Outcome, MeasurementError>
                do {
                    outcome = .success(try work(design))
                } catch let error as MeasurementError {
                    outcome = .failure(error)
                } catch {
                    outcome = .failure(.stageFailed("stores: \(stage) of \(design.rawValue): \(error)"))
                }
                lock.withLock { outcomes[index] = outcome }
            }
        }
        group.wait()
        return try designs.indices.map { index throws(MeasurementError) in try lock.withLock { outcomes[index] }.get() }
    }

    /// The kill sweep and the two writers of every design, two designs at a time (their children
    /// are processes of their own, and nothing here is timed); skipped, with the reason, when
    /// `writer` is `nil`.
    static func survival(
        _ designs: [DedupeStore.Design], sizing: StoreSizing, seed: UInt64, writer: StoreWriterCommand?, root: URL
    ) throws(MeasurementError) -> (kills: [StoreKillResult], twoWriters: [StoreTwoWriterResult]) {
        guard let writer else {
            let skipped = "this process cannot start harness children (a test runner or another tool linking the harness): not measured"
            return (
                designs.map {
                    StoreKillResult(
                        design: $0.rawValue, retained: sizing.killRetained, killPoints: 0, acknowledged: 0, lost: 0, repairs: 0,
                        tornTailsCut: 0, skipped: skipped)
                },
                designs.map {
                    StoreTwoWriterResult(
                        design: $0.rawValue, consumesPerWriter: sizing.twoWriterConsumes, retained: 2 * sizing.twoWriterConsumes + 1_000,
                        acknowledged: 0, lost: 0, skipped: skipped)
                })
        }
        let outcomes = try twoAtATime(designs, stage: "survival") { design in
            let settings = StoreKillSweep.Settings(
                points: sizing.killPoints, retained: sizing.killRetained, seed: seed,
                maximumAcknowledged: 2 * sizing.killRetained, maximumDelayMicroseconds: 100)
            let kill = try StoreKillSweep.run(
                design, writer: writer, settings: settings,
                directory: try StoreDesigns.makeDirectory(root, "kill-\(design.rawValue)"))
            let two = try StoreTwoWriters.run(
                design, writer: writer, consumesPerWriter: sizing.twoWriterConsumes,
                directory: try StoreDesigns.makeDirectory(root, "two-\(design.rawValue)"))
            return (kill, two)
        }
        return (outcomes.map(\.0), outcomes.map(\.1))
    }
}
