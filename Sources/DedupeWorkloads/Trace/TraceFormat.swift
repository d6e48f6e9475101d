import PushDedupe

/// Constants and small codecs shared by ``TraceWriter`` and ``TraceReader``; the format itself is
/// specified in `Guides/TraceFormat.md`.
enum TraceFormat {
    /// The six columns every trace has; the first header form.
    static let header = "time_ms,kind,envelope,fingerprint,source,truth"
    /// The headers a reader accepts, by column count: 6, 7 (with `push_id`) and 8 (with
    /// `push_id,suppressed`, what ``TraceWriter`` and the library's recorder write).
    static let headers = [header, header + ",push_id", header + ",push_id,suppressed"]
    /// The header with `columns` columns.
    static func header(columns: Int) -> String { headers[columns - minimumColumnCount] }
    static let minimumColumnCount = 6
    static let pushColumn = 6
    static let suppressedColumn = 7
    static let maximumEnvelopeLength = 64
    /// The same alphabet and length as an envelope token.
    static let maximumPushIDLength = 64
    /// In Unicode scalars.
    static let maximumFingerprintLength = 128
    /// In Unicode scalars.
    static let maximumSourceLength = 128
    /// Any longer line is rejected before it is buffered, so a file without newlines cannot
    /// exhaust memory. Valid event lines are far shorter (under 1 KiB).
    static let maximumLineLength = 65_536

    /// Appends `nanoseconds` as decimal milliseconds with the fraction trimmed of trailing zeros:
    /// exactly the nanosecond value, e.g. `1500000` → `1.5`, `7000000` → `7`.
    static func appendMilliseconds(_ nanoseconds: Int64, to output: inout [UInt8]) {
        if nanoseconds < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude
        appendDecimal(magnitude / 1_000_000, to: &output)
        var fraction = magnitude % 1_000_000
        guard fraction != 0 else { return }
        output.append(UInt8(ascii: "."))
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var scratch = [UInt8](repeating: UInt8(ascii: "0"), count: digits)
        for position in stride(from: digits - 1, through: 0, by: -1) {
            scratch[position] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        output.append(contentsOf: scratch)
    }

    /// `nanoseconds` as trace text, for messages.
    static func milliseconds(_ nanoseconds: Int64) -> String {
        var bytes: [UInt8] = []
        appendMilliseconds(nanoseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendDecimal(_ value: UInt64, to output: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &output) }
        output.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Parses `[-]digits[.digits]` milliseconds into nanoseconds, rounding digits beyond the
    /// sixth decimal half away from zero. `nil` for anything else or a value outside `Int64`.
    static func parseMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
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

    private static func digitValue(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    /// `EnvelopeID(token:)` of the token `bytes`, computed from the bytes without building a
    /// `String`: a canonical UUID maps to its own bits, any other token to the same two FNV-1a
    /// digests (tested against `EnvelopeID(token:)`).
    static func envelopeID(ofToken bytes: ArraySlice<UInt8>) -> EnvelopeID {
        canonicalUUID(bytes) ?? digestID(bytes)
    }

    /// The id of a token that is not a canonical UUID: what `EnvelopeID(token:)` computes.
    static func digestID(_ bytes: ArraySlice<UInt8>) -> EnvelopeID {
        EnvelopeID(high: DeterministicHashing.fnv1a64(bytes, seed: 0x5555_5555_5555_5555),
                   low: DeterministicHashing.fnv1a64(bytes, seed: 0xaaaa_aaaa_aaaa_aaaa))
    }

    /// The bits of `8-4-4-4-12` hexadecimal digits, either letter case (the tokens
    /// `EnvelopeID(token:)` parses as UUIDs), or `nil` for any other token. One pass: it runs
    /// for every envelope and push id of a trace.
    static func canonicalUUID(_ bytes: ArraySlice<UInt8>) -> EnvelopeID? {
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
    private static let hexValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
        default: 0xff
        }
    }

    /// Whether `byte` may appear in an envelope token or a push id: `[A-Za-z0-9_-]`.
    static func isEnvelopeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
