import DedupeMeasurement
import Foundation
import PushDedupe
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the parent asks a store-writer child to do: open a deduplicator on `path` and consume
/// `prefix0`, `prefix1`, … from `start`, `count` of them.
package struct StoreWriterRequest: Codable, Sendable, Equatable {
    /// A `DedupeStore.Design` raw value.
    var design: String
    /// A `StoreDurability` raw value.
    var durability: String
    var path: String
    var retained: Int
    var prefix: String
    var start: Int
    var count: Int
}

/// The store-writer child (started by ``StoreWriterCommand``): the process the kill sweep ends with SIGKILL and
/// the two-writer check runs twice at once.
///
/// After each `receiveEmit(pushID:)` returns, the child writes the id's index and a newline to
/// stdout with one `write(2)`, unbuffered: a line the parent reads is a consume the library
/// acknowledged, which the store must then keep through a kill at any later moment.
package enum StoreWriterChild {
    /// Runs `request`; returns when every id is consumed (unless killed first).
    package static func run(_ request: StoreWriterRequest) throws {
        guard let design = DedupeStore.Design(rawValue: request.design), let durability = StoreDurability(rawValue: request.durability),
              request.retained > 0, request.start >= 0, request.count >= 0
        else { throw MeasurementError.invalidPlan("store-writer: bad request \(request)") }
        let store = StoreDesigns.store(design, at: URL(fileURLWithPath: request.path), durability: durability)
        let dedupe = try StoreDesigns.deduplicator(retained: request.retained, store: store)
        var line = [UInt8](repeating: 0, count: 24)
        for index in request.start..<(request.start + request.count) {
            _ = dedupe.receiveEmit(pushID: request.prefix + String(index))
            let length = Self.decimal(index, into: &line)
            let written = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, length) }
            // The parent has gone (or closed the pipe): nothing more to acknowledge.
            if written != length { return }
        }
    }

    /// Writes `value` in decimal and a newline at the start of `buffer`; returns the length.
    static func decimal(_ value: Int, into buffer: inout [UInt8]) -> Int {
        var digits = 0
        var rest = value
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        rest = value
        for position in stride(from: digits - 1, through: 0, by: -1) {
            buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        buffer[digits] = UInt8(ascii: "\n")
        return digits + 1
    }
}
