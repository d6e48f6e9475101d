import DedupeWorkloads
import Foundation
import PushDedupe
import Testing
@testable import DedupeHarness

/// The binary columns file a child receives instead of a workload: every prefix written reads
/// back as the prefix of the columns, and a file that is not one is refused with its reason.
@Suite struct ColumnsFileTests {
    static let workload = randomWorkload(seed: 21, events: 1_500, orphanEmits: true)
    static let columns = EventColumns(workload.events)

    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "/columns-file-tests-\(getpid())-\(name)"
    }

    @Test func everyPrefixWrittenReadsBackAsThePrefix() throws {
        let path = Self.temporaryPath("prefix")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for count in [0, 1, 2, 37, 38, 700, 1_499, 1_500, 9_999] {
            try ColumnsFile.write(Self.columns, count: count, to: path)
            #expect(try ColumnsFile.read(path) == Self.columns.prefix(count), "prefix \(count)")
        }
    }

    @Test func readingALimitEqualsThePrefix() throws {
        let path = Self.temporaryPath("limit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ColumnsFile.write(Self.columns, count: Self.columns.count, to: path)
        for limit in [0, 5, 64, 1_000, 1_500, 2_000] {
            #expect(try ColumnsFile.read(path, limit: limit) == Self.columns.prefix(limit), "limit \(limit)")
        }
    }

    /// 28 bytes an event and 16 an envelope, after a 24-byte header.
    @Test func theFileIsAsCompactAsTheColumns() throws {
        let path = Self.temporaryPath("size")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ColumnsFile.write(Self.columns, count: Self.columns.count, to: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size == 24 + 28 * Self.columns.count + 16 * Self.columns.envelopeCount)
    }

    @Test(arguments: ["short", "magic", "truth", "flags", "slot"])
    func aDamagedFileIsRefused(damage: String) throws {
        let path = Self.temporaryPath("damaged-\(damage)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ColumnsFile.write(Self.columns, count: 100, to: path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let events = 24, truths = events + 100 * (8 + 8 + 4 + 2), flags = truths + 100, slots = flags + 100
        switch damage {
        case "short": bytes.removeLast()
        case "magic": bytes[0] = UInt8(ascii: "X")
        case "truth": bytes[truths + 3] = 7
        case "flags": bytes[flags + 3] = 0x80
        default:
            let index = try #require((0..<100).first { !Self.columns.isLifecycle($0) })
            bytes.replaceSubrange(slots + 4 * index..<slots + 4 * index + 4, with: [0xff, 0xff, 0xff, 0x7f])
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ColumnsFile.Malformed.self) { try ColumnsFile.read(path) }
    }

    /// A trace's timing child is sent its timed prefix as a columns file, not the workload.
    @Test func aTraceReachesAChildAsAColumnsFile() throws {
        let path = Self.temporaryPath("child")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ColumnsFile.write(Self.columns, count: 300, to: path)
        let child = ChildWorkload(spec: nil, columnsFile: path)
        #expect(try child.makeColumns(limit: 200) == Self.columns.prefix(200))
        let request = String(decoding: try JSONEncoder().encode(child), as: UTF8.self)
        #expect(request.count < 200)
    }
}
