/// The trace file format's one definition (`Guides/TraceFormat.md`): its headers, columns, field
/// limits and field codecs, which the recorder and its resume reader use here and
/// `DedupeWorkloads`' writer and reader use from their module. Lines are written by
/// ``_TraceLine``. The decoders a reader runs per line are `@inlinable public`, so a reader in
/// another module inlines them: in this toolchain an `@inlinable package` member is still
/// called across modules (measured: a 10⁶-line trace parsed 1.7× slower that way).
public enum TraceFormat {
    /// The six columns every trace has; the first header form.
    package static let header = "time_ms,kind,envelope,fingerprint,source,truth"
    /// The headers a reader accepts, by column count: 6, 7 (with `push_id`), 8 (with
    /// `push_id,suppressed`, and `TraceWriter` for a workload with push ids or suppressions) and
    /// 9 (with `push_id,suppressed,action`, `TraceWriter` for a workload with action records).
    /// The recorder writes the 8-column form (``recorderColumnCount``).
    package static let headers = [
        header, header + ",push_id", header + ",push_id,suppressed", header + ",push_id,suppressed,action",
    ]
    /// The header with `columns` columns.
    package static func header(columns: Int) -> String { headers[columns - minimumColumnCount] }
    // The numbers a reader checks per line are inlinable constants: a `static let` read from
    // another module is a call.
    @inlinable public static var minimumColumnCount: Int { 6 }
    @inlinable public static var maximumColumnCount: Int { 9 }
    @inlinable public static var pushColumn: Int { 6 }
    @inlinable public static var suppressedColumn: Int { 7 }
    @inlinable public static var actionColumn: Int { 8 }
    /// The columns the recorder writes: everything but `action`.
    package static let recorderColumnCount = 8

    /// The `kind` of an action line: a tap starting an action under the loading guard, and its
    /// two ends.
    package static let actionStartKind = "action_start"
    package static let actionFinishKind = "action_finish"
    package static let actionCancelKind = "action_cancel"

    /// The recorder's leading comment up to its route mode, and its origin comment's key.
    package static let recorderCommentPrefix = "# Recorded by PushDedupe TraceRecorder (routes "
    package static let originKey = "origin_unix_ms="

    /// The longest envelope token and push id, in bytes of `[A-Za-z0-9_-]`.
    @inlinable public static var maximumTokenLength: Int { 64 }
    /// The longest fingerprint (route) and source, in Unicode scalars.
    @inlinable public static var maximumLabelLength: Int { 128 }
    /// Any longer line is rejected before it is buffered, so a file without newlines cannot
    /// exhaust memory. Valid event lines are far shorter (``_TraceLine/capacity``).
    @inlinable public static var maximumLineLength: Int { 65_536 }

    // MARK: Fields

    /// Appends to `bounds` the ranges of `buffer[line]`'s comma-separated fields.
    @inlinable
    public static func splitFields(_ buffer: [UInt8], _ line: Range<Int>, into bounds: inout [Range<Int>]) {
        bounds.removeAll(keepingCapacity: true)
        var fieldStart = line.lowerBound
        for index in line where buffer[index] == UInt8(ascii: ",") {
            bounds.append(fieldStart..<index)
            fieldStart = index + 1
        }
        bounds.append(fieldStart..<line.upperBound)
    }

    /// Whether no label may hold `scalar`: a control character (C0, DEL or C1).
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7f || (0x80..<0xa0).contains(scalar.value)
    }

    // MARK: Time

    /// Parses `[-]digits[.digits]` milliseconds into nanoseconds, rounding digits beyond the
    /// sixth decimal half away from zero. `nil` for anything else or a value outside `Int64`.
    @inlinable
    public static func parseMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var whole: UInt64 = 0
        var wholeDigits = 0
        while index < bytes.count, let digit = digitValue(bytes[index]) {
            let (times, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            guard !overflow1 && !overflow2 else { return nil }
            whole = sum
            wholeDigits += 1
            index += 1
        }
        guard wholeDigits > 0 else { return nil }
        var fraction: UInt64 = 0
        var roundUp = false
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: ".") else { return nil }
            index += 1
            var fractionDigits = 0
            while index < bytes.count, let digit = digitValue(bytes[index]) {
                if fractionDigits < 6 {
                    fraction = fraction * 10 + digit
                } else if fractionDigits == 6 {
                    roundUp = digit >= 5
                }
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0, index == bytes.count else { return nil }
            while fractionDigits < 6 {
                fraction *= 10
                fractionDigits += 1
            }
        }
        let (scaled, overflow1) = whole.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflow2) = scaled.addingReportingOverflow(fraction + (roundUp ? 1 : 0))
        // −2⁶³ ns has no positive counterpart in Int64, so the negative bound is one larger.
        guard !overflow1 && !overflow2, sum <= (negative ? Int64.min.magnitude : UInt64(Int64.max)) else { return nil }
        return negative ? Int64(truncatingIfNeeded: 0 &- sum) : Int64(sum)
    }

    @inlinable
    static func digitValue(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    /// `nanoseconds` as trace text (what ``_TraceLine/time(nanoseconds:)`` writes), for messages.
    package static func milliseconds(_ nanoseconds: Int64) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _TraceLine.capacity) { buffer in
            var line = _TraceLine(buffer)
            line.time(nanoseconds: nanoseconds)
            return String(decoding: line.bytes, as: UTF8.self)
        }
    }

    // MARK: Tokens

    /// Whether `byte` may appear in an envelope token or a push id: `[A-Za-z0-9_-]`.
    @inlinable
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Whether `bytes` are an envelope token or push id the format holds as they are: 1 to 64 of
    /// `[A-Za-z0-9_-]`.
    @inlinable
    public static func isToken<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var count = 0
        for byte in bytes {
            count += 1
            guard count <= maximumTokenLength, isTokenByte(byte) else { return false }
        }
        return count > 0
    }

    /// `EnvelopeID(token:)` of the token `bytes`, computed from the bytes without building a
    /// `String`: a canonical UUID maps to its own bits, any other token to the same two FNV-1a
    /// digests (tested against `EnvelopeID(token:)`).
    @inlinable
    public static func envelopeID(ofToken bytes: ArraySlice<UInt8>) -> EnvelopeID {
        canonicalUUID(bytes) ?? digestID(bytes)
    }

    /// The id of a token that is not a canonical UUID: what `EnvelopeID(token:)` computes.
    @inlinable
    public static func digestID(_ bytes: ArraySlice<UInt8>) -> EnvelopeID {
        EnvelopeID(high: DeterministicHashing.fnv1a64(bytes, seed: 0x5555_5555_5555_5555),
                   low: DeterministicHashing.fnv1a64(bytes, seed: 0xaaaa_aaaa_aaaa_aaaa))
    }

    /// The bits of `8-4-4-4-12` hexadecimal digits, either letter case (the tokens
    /// `EnvelopeID(token:)` parses as UUIDs), or `nil` for any other token. One pass: it runs
    /// for every envelope and push id of a trace.
    @inlinable
    public static func canonicalUUID(_ bytes: ArraySlice<UInt8>) -> EnvelopeID? {
        guard bytes.count == 36 else { return nil }
        let table = hexValues
        return bytes.withUnsafeBufferPointer { digits -> EnvelopeID? in
            var halves: (UInt64, UInt64) = (0, 0)
            var nibbles = 0
            for position in 0..<36 {
                let byte = digits[position]
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let value = table[Int(byte)]
                guard value < 16 else { return nil }
                if nibbles < 16 { halves.0 = halves.0 << 4 | UInt64(value) } else { halves.1 = halves.1 << 4 | UInt64(value) }
                nibbles += 1
            }
            return EnvelopeID(high: halves.0, low: halves.1)
        }
    }

    /// Each byte's hexadecimal value, 0xff for a byte that is not a hex digit.
    @usableFromInline
    static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xff
        }
    }
}
