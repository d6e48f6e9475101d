/// The framing every consumed-set snapshot shares (`Guides/Snapshots.md`), and the field codecs
/// the strategies' payloads are written with, so no strategy repeats them.
///
/// ```
/// "PDCS"  version (1 byte)  strategy id (varint length, UTF-8)  payload (varint length, bytes)
/// checksum (8 bytes, little-endian FNV-1a 64 of every byte before it)
/// ```
///
/// FNV-1a changes its state by a bijection per byte, so any one changed byte changes the
/// checksum: every single-byte corruption is caught, not just most.
enum _SnapshotFormat {
    static let magic: [UInt8] = Array("PDCS".utf8)
    static let version: UInt8 = 1
    static let checksumLength = 8

    /// ``DeterministicHashing/fnv1a64(_:seed:)`` of `bytes`, over a buffer with a plain loop:
    /// unspecialized (a debug build), the generic byte iterator cost a metadata lookup per byte,
    /// and snapshots of thousands of ids are checksummed at every save and restore.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            var hash = DeterministicHashing.fnvOffsetBasis
            var index = 0
            while index < buffer.count {
                hash = (hash ^ UInt64(buffer[index])) &* DeterministicHashing.fnvPrime
                index += 1
            }
            return DeterministicHashing.mix64(hash)
        }
    }

    /// Whether `bytes` is a snapshot whose checksum holds, of this version or a newer one, so
    /// that a damaged file is never taken for a snapshot.
    static func isFramed(_ bytes: [UInt8]) -> Bool {
        if newerVersion(bytes) != nil { return true }
        do throws(SnapshotError) {
            _ = try _SnapshotReader(framing: bytes)
            return true
        } catch {
            return false
        }
    }

    /// The version of a later library's snapshot: the magic, a version above this one, and a
    /// checksum in the last 8 bytes over every byte before them, which every version keeps
    /// (what lies between may change). `nil` for anything else: a damaged version byte fails
    /// the checksum, so it is never taken for a newer version.
    static func newerVersion(_ bytes: [UInt8]) -> UInt8? {
        guard bytes.count >= magic.count + 1 + checksumLength, bytes.starts(with: magic), bytes[magic.count] > version else { return nil }
        let end = bytes.count - checksumLength
        let stored = bytes[end...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return stored == checksum(bytes[..<end]) ? bytes[magic.count] : nil
    }
}

/// Builds one snapshot: the strategy writes its payload fields, then `finished` frames them.
struct _SnapshotWriter {
    private(set) var payload: [UInt8] = []

    init(reservingCapacity bytes: Int = 64) {
        payload.reserveCapacity(bytes)
    }

    /// LEB128: 7 bits per byte, low first.
    mutating func write(varint value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            payload.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        payload.append(UInt8(truncatingIfNeeded: rest))
    }

    mutating func write(count: Int) {
        precondition(count >= 0, "counts are never negative")
        write(varint: UInt64(count))
    }

    /// Zig-zag, so that small negative times stay short.
    mutating func write(time: Int64) {
        write(varint: UInt64(bitPattern: (time << 1) ^ (time >> 63)))
    }

    mutating func write(_ flag: Bool) {
        payload.append(flag ? 1 : 0)
    }

    /// Little-endian, appended as one 8-byte block.
    mutating func write(fixed value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { payload.append(contentsOf: $0) }
    }

    mutating func write(_ id: EnvelopeID) {
        write(fixed: id.high)
        write(fixed: id.low)
    }

    /// A count, then the ids.
    mutating func write(ids: some Collection<EnvelopeID>) {
        write(count: ids.count)
        for id in ids { write(id) }
    }

    /// A count, then the words, for bit and cell arrays.
    mutating func write(words: [UInt64]) {
        write(count: words.count)
        payload.reserveCapacity(payload.count + 8 * words.count)
        for word in words { write(fixed: word) }
    }

    /// The framed snapshot of `strategyID`.
    func finished(strategyID: String) -> [UInt8] {
        var writer = _SnapshotWriter(reservingCapacity: payload.count + 32)
        writer.payload = _SnapshotFormat.magic
        writer.payload.append(_SnapshotFormat.version)
        let id = Array(strategyID.utf8)
        writer.write(count: id.count)
        writer.payload += id
        writer.write(count: payload.count)
        writer.payload += payload
        writer.write(fixed: _SnapshotFormat.checksum(writer.payload[...]))
        return writer.payload
    }
}

/// Reads one snapshot: `init` checks the framing and the checksum, then the strategy reads its
/// fields in the order it wrote them and calls `finish`. Every read is bounds-checked and throws
/// rather than traps.
struct _SnapshotReader {
    private let bytes: [UInt8]
    private var position: Int
    /// The end of the payload.
    private var end: Int

    /// The strategy id in the header, which `init(framing:)` read.
    private(set) var storedStrategyID = ""

    /// Checks that `bytes` is a whole, uncorrupted snapshot of `strategyID` in this version.
    init(_ bytes: [UInt8], strategyID: String) throws(SnapshotError) {
        try self.init(framing: bytes)
        guard storedStrategyID == strategyID else {
            var error = SnapshotError(kind: .wrongStrategy, reason: "written by '\(storedStrategyID)', not '\(strategyID)'")
            error.storedStrategy = storedStrategyID
            error.requestedStrategy = strategyID
            throw error
        }
    }

    /// Checks that `bytes` is a whole, uncorrupted snapshot in this version, of any strategy
    /// (``storedStrategyID`` names it).
    init(framing bytes: [UInt8]) throws(SnapshotError) {
        self.bytes = bytes
        position = 0
        end = bytes.count
        let magic = _SnapshotFormat.magic
        guard bytes.count >= magic.count else {
            throw SnapshotError(kind: .truncated, reason: "\(bytes.count) bytes, shorter than the header")
        }
        guard bytes.starts(with: magic) else {
            throw SnapshotError(kind: .notASnapshot, reason: "does not start with \"PDCS\"")
        }
        position = magic.count
        let version = try readByte()
        let idLength = try readCount(maximumElementSize: 1, limit: bytes.count)
        let storedID = try read(idLength)
        let payloadLength = try readCount(maximumElementSize: 1, limit: bytes.count)
        let payloadStart = position
        let expected = payloadStart + payloadLength + _SnapshotFormat.checksumLength
        guard bytes.count >= expected else {
            throw SnapshotError(kind: .truncated, reason: "\(bytes.count) bytes, the header announces \(expected)")
        }
        guard bytes.count == expected else {
            throw SnapshotError(kind: .malformed, reason: "\(bytes.count - expected) bytes after the checksum")
        }
        var checksumReader = self
        checksumReader.position = payloadStart + payloadLength
        let stored = try checksumReader.readFixed()
        guard stored == _SnapshotFormat.checksum(bytes[..<(payloadStart + payloadLength)]) else {
            throw SnapshotError(kind: .checksumMismatch, reason: "the checksum does not match the contents")
        }
        // Checked after the checksum, so that a corrupted version or id byte reads as corruption.
        guard version == _SnapshotFormat.version else {
            let age = version < _SnapshotFormat.version ? "an older" : "a newer"
            throw SnapshotError(
                kind: .unsupportedVersion,
                reason: "format version \(version) (\(age) format); this library reads \(_SnapshotFormat.version)")
        }
        storedStrategyID = String(decoding: storedID, as: UTF8.self)
        position = payloadStart
        self.end = payloadStart + payloadLength
    }

    private mutating func readByte() throws(SnapshotError) -> UInt8 {
        guard position < end else { throw Self.truncated }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func read(_ count: Int) throws(SnapshotError) -> ArraySlice<UInt8> {
        guard count <= end - position else { throw Self.truncated }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    private static var truncated: SnapshotError {
        SnapshotError(kind: .truncated, reason: "a field runs past the end")
    }

    mutating func readVarint() throws(SnapshotError) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<10 {
            let byte = try readByte()
            // The tenth byte holds bit 63 only.
            guard index < 9 || byte <= 1 else { throw SnapshotError(kind: .malformed, reason: "a varint overflows 64 bits") }
            value |= UInt64(byte & 0x7f) << UInt64(7 * index)
            if byte < 0x80 { return value }
        }
        throw SnapshotError(kind: .malformed, reason: "a varint is longer than 10 bytes")
    }

    /// A count of elements of at least `maximumElementSize` bytes each that must still fit in the
    /// payload (so a corrupt count cannot ask for a huge allocation), and be at most `limit`.
    mutating func readCount(maximumElementSize size: Int, limit: Int = .max) throws(SnapshotError) -> Int {
        let value = try readVarint()
        guard value <= UInt64(limit) else {
            throw SnapshotError(kind: .malformed, reason: "a count of \(value) is above its limit \(limit)")
        }
        guard value <= UInt64((end - position) / Swift.max(1, size)) else { throw Self.truncated }
        return Int(value)
    }

    /// A non-negative integer (a counter), at most `limit`.
    mutating func readInteger(limit: Int = .max) throws(SnapshotError) -> Int {
        let value = try readVarint()
        guard value <= UInt64(limit) else {
            throw SnapshotError(kind: .malformed, reason: "a value of \(value) is above its limit \(limit)")
        }
        return Int(value)
    }

    mutating func readTime() throws(SnapshotError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    mutating func readBool() throws(SnapshotError) -> Bool {
        switch try readByte() {
        case 0: return false
        case 1: return true
        case let byte: throw SnapshotError(kind: .malformed, reason: "a flag byte is \(byte), not 0 or 1")
        }
    }

    mutating func readFixed() throws(SnapshotError) -> UInt64 {
        guard 8 <= end - position else { throw Self.truncated }
        defer { position += 8 }
        let start = position
        return UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt64.self) })
    }

    mutating func readID() throws(SnapshotError) -> EnvelopeID {
        EnvelopeID(high: try readFixed(), low: try readFixed())
    }

    /// A count of at most `limit`, then that many ids.
    mutating func readIDs(limit: Int = .max) throws(SnapshotError) -> [EnvelopeID] {
        let count = try readCount(maximumElementSize: 16, limit: limit)
        var ids: [EnvelopeID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count { ids.append(try readID()) }
        return ids
    }

    /// A count that must equal `expectedCount` (the size a set of the configuration has), then
    /// the words.
    mutating func readWords(expectedCount: Int, field: String) throws(SnapshotError) -> [UInt64] {
        let count = try readCount(maximumElementSize: 8)
        guard count == expectedCount else {
            throw SnapshotError(
                kind: .incompatibleConfiguration,
                reason: "\(field) has \(count) words; a set of this configuration has \(expectedCount)")
        }
        var words: [UInt64] = []
        words.reserveCapacity(count)
        for _ in 0..<count { words.append(try readFixed()) }
        return words
    }

    /// Fails unless the whole payload was read.
    func finish() throws(SnapshotError) {
        guard position == end else {
            throw SnapshotError(kind: .malformed, reason: "\(end - position) payload bytes left unread")
        }
    }

    /// The whole payload of an evicting exact set (`bounded-lru`, `direct-mapped`, `fifo-set`,
    /// `recent-ids`): its eviction count, then at most `limit` ids in the order to replay them.
    static func evictionsAndIDs(
        _ bytes: [UInt8], strategyID: String, limit: Int = .max
    ) throws(SnapshotError) -> (evictions: Int, ids: [EnvelopeID]) {
        var reader = try _SnapshotReader(bytes, strategyID: strategyID)
        let evictions = try reader.readInteger()
        let ids = try reader.readIDs(limit: limit)
        try reader.finish()
        return (evictions, ids)
    }
}

/// A payload scalar, encoded by its type as the writer's labelled methods encode it: `Int` a
/// count, `Int64` a time, `UInt64` eight fixed bytes, `Bool` a flag. A strategy writes its
/// scalars with one `write(_:)` and reads them back with one `read()`, so the two lists line up.
protocol _SnapshotScalar {
    func write(to writer: inout _SnapshotWriter)
    static func read(from reader: inout _SnapshotReader) throws(SnapshotError) -> Self
}

extension Int: _SnapshotScalar {
    func write(to writer: inout _SnapshotWriter) { writer.write(count: self) }
    static func read(from reader: inout _SnapshotReader) throws(SnapshotError) -> Int { try reader.readInteger() }
}

extension Int64: _SnapshotScalar {
    func write(to writer: inout _SnapshotWriter) { writer.write(time: self) }
    static func read(from reader: inout _SnapshotReader) throws(SnapshotError) -> Int64 { try reader.readTime() }
}

extension UInt64: _SnapshotScalar {
    func write(to writer: inout _SnapshotWriter) { writer.write(fixed: self) }
    static func read(from reader: inout _SnapshotReader) throws(SnapshotError) -> UInt64 { try reader.readFixed() }
}

extension Bool: _SnapshotScalar {
    func write(to writer: inout _SnapshotWriter) { writer.write(self) }
    static func read(from reader: inout _SnapshotReader) throws(SnapshotError) -> Bool { try reader.readBool() }
}

extension _SnapshotWriter {
    /// Each scalar in turn, encoded by its type.
    mutating func write<each Scalar: _SnapshotScalar>(_ scalar: repeat each Scalar) {
        repeat (each scalar).write(to: &self)
    }
}

extension _SnapshotReader {
    /// Scalars of the types the caller names, in turn, as `write(_:)` wrote them.
    mutating func read<each Scalar: _SnapshotScalar>() throws(SnapshotError) -> (repeat each Scalar) {
        (repeat try (each Scalar).read(from: &self))
    }
}

extension SnapshotError {
    /// The configuration could not build the set being restored.
    static func configuration(_ error: ConfigurationError) -> SnapshotError {
        SnapshotError(kind: .incompatibleConfiguration, reason: error.description)
    }

    /// A restored field is out of range.
    static func malformed(_ reason: String) -> SnapshotError {
        SnapshotError(kind: .malformed, reason: reason)
    }

    /// A filter's snapshot was sized by another configuration.
    static func incompatible(_ reason: String) -> SnapshotError {
        SnapshotError(kind: .incompatibleConfiguration, reason: reason)
    }
}

extension ConsumedSet {
    /// A fresh set of `configuration`, with a configuration error reported as a snapshot error.
    static func _empty(_ configuration: ConsumedSetConfiguration) throws(SnapshotError) -> Self {
        do {
            return try Self(configuration: configuration)
        } catch {
            throw .configuration(error)
        }
    }

    /// Consumes `ids` in order at time 0, to rebuild an exact set's retained ids.
    mutating func _replay(_ ids: [EnvelopeID]) {
        for id in ids { _ = consume(id, at: Timestamp(nanoseconds: 0)) }
    }
}

extension ConsumedSet {
    /// Replays `ids`, which an exact set's snapshot holds once each: any refused means the
    /// snapshot listed an id twice.
    mutating func _replayDistinct(_ ids: [EnvelopeID]) throws(SnapshotError) {
        for id in ids where !consume(id, at: Timestamp(nanoseconds: 0)) {
            throw .malformed("id \(id) is listed twice")
        }
    }
}

/// A set whose snapshot holds its ids themselves (every set but the filters), so that another
/// such set can be rebuilt from them: what `init(migrating:configuration:)` needs.
protocol _IDListSnapshot: SnapshottableConsumedSet {
    /// The retained ids of a snapshot of this strategy, in the order that rebuilds the set.
    static func _snapshotIDs(_ snapshot: [UInt8]) throws(SnapshotError) -> [EnvelopeID]
}

/// Every strategy a snapshot may migrate from, looked up by the id in its header.
enum _IDListSnapshots {
    /// The sets `StrategyRegistry` registers whose snapshots hold their ids: read from the
    /// registry, so a new such set migrates without a second list.
    static let all: [any _IDListSnapshot.Type] = {
        struct Collector: ConsumedSetRegistryVisitor {
            var types: [any _IDListSnapshot.Type] = []
            mutating func visit<C: ConsumedSet>(
                _ type: C.Type, id: String?, reads: [ConfigurationParameter], summary: String, pinned: ConsumedSetConfiguration?
            ) {
                guard let listed = type as? any _IDListSnapshot.Type,
                      !types.contains(where: { $0.strategyID == listed.strategyID }) else { return }
                types.append(listed)
            }
        }
        var collector = Collector()
        StrategyRegistry.visitConsumedSets(&collector)
        return collector.types
    }()

    static func strategy(named id: String) -> (any _IDListSnapshot.Type)? {
        all.first { $0.strategyID == id }
    }
}
