extension TraceRecorder {
    /// Clears the line and appends the time and the kind (which ends with its comma).
    func beginLine(at time: Timestamp, kind: StaticString) {
        line.removeAll(keepingCapacity: true)
        appendTime(time)
        kind.withUTF8Buffer { line.append(contentsOf: $0) }
    }

    /// The envelope token, then a comma.
    func appendEnvelope(_ token: _EnvelopeToken, of envelope: EnvelopeID) {
        switch token {
        case .uuid: appendUUID(envelope)
        case .delivery(let number):
            line.append(UInt8(ascii: "d"))
            appendDecimal(UInt64(number))
        case .verbatim(let text): line.append(contentsOf: text.utf8)
        }
        line.append(UInt8(ascii: ","))
    }

    /// The lower-case canonical UUID of `id`'s 128 bits.
    func appendUUID(_ id: EnvelopeID) {
        appendHex(id.high >> 32, digits: 8)
        line.append(UInt8(ascii: "-"))
        appendHex(id.high >> 16, digits: 4)
        line.append(UInt8(ascii: "-"))
        appendHex(id.high, digits: 4)
        line.append(UInt8(ascii: "-"))
        appendHex(id.low >> 48, digits: 4)
        line.append(UInt8(ascii: "-"))
        appendHex(id.low, digits: 12)
    }

    /// Appends `,SOURCE,,PUSH_ID,SUPPRESSED` (empty truth) and the newline, and hands the line
    /// to the sink. `PUSH_ID` is `pushID` when the format holds it, the canonical UUID of
    /// `envelope` for any other push id and for a `UUID` given again (`reused`), else empty.
    func endLine(source: String, pushID: String?, envelope: EnvelopeID, reused: Bool, decision: RoutingDecision) {
        line.append(UInt8(ascii: ","))
        var scalars = 0
        for scalar in source.unicodeScalars {
            guard scalars < Self.maximumLabelLength else { break }
            scalars += 1
            if Self.isForbidden(scalar) {
                line.append(UInt8(ascii: "_"))
            } else {
                UTF8.encode(scalar) { line.append($0) }
            }
        }
        line.append(UInt8(ascii: ","))
        line.append(UInt8(ascii: ","))
        if let pushID, Self.isTokenRepresentable(pushID) {
            line.append(contentsOf: pushID.utf8)
        } else if pushID != nil || reused {
            appendUUID(envelope)
        }
        line.append(UInt8(ascii: ","))
        switch decision {
        case .navigated: break
        case .suppressedByWindow: line.append(contentsOf: "window".utf8)
        case .suppressedByConsumedSet: line.append(contentsOf: "consumed-set".utf8)
        }
        line.append(UInt8(ascii: "\n"))
        line.withUnsafeBytes { _sink.write($0) }
    }

    /// Writes `TIME,KIND,,,,,,`: a line with only a time.
    func writeBare(kind: StaticString, at time: Timestamp) {
        line.removeAll(keepingCapacity: true)
        appendTime(time)
        kind.withUTF8Buffer { line.append(contentsOf: $0) }
        line.append(contentsOf: ",,,,,,\n".utf8)
        line.withUnsafeBytes { _sink.write($0) }
    }

    /// Writes text that is not an event (the comments and the header).
    func writeText(_ text: String) {
        var text = text
        text.withUTF8 { _sink.write(UnsafeRawBufferPointer($0)) }
    }

    /// `fp:` and 16 hex digits.
    func appendRouteToken(_ digest: UInt64) {
        line.append(contentsOf: "fp:".utf8)
        appendHex(digest, digits: 16)
    }

    /// The low `digits` hex digits of `value`, lower case.
    func appendHex(_ value: UInt64, digits: Int) {
        for position in stride(from: digits - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * position)) & 0xf
            line.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    /// `time + offset`, clamped to the latest time written, as decimal milliseconds with the
    /// fraction's trailing zeros dropped (`7`, `4.5`, `180.000125`), then a comma.
    func appendTime(_ time: Timestamp) {
        latest = max(latest, (time + timeOffset.durationSinceOrigin).nanoseconds)
        if latest < 0 { line.append(UInt8(ascii: "-")) }
        let magnitude = latest.magnitude
        appendDecimal(magnitude / 1_000_000)
        var fraction = magnitude % 1_000_000
        if fraction != 0 {
            line.append(UInt8(ascii: "."))
            var digits = 6
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            var divisor: UInt64 = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                divisor /= 10
            }
        }
        line.append(UInt8(ascii: ","))
    }

    func appendDecimal(_ value: UInt64) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The longest route and source the format allows, in Unicode scalars.
    static var maximumLabelLength: Int { 128 }

    /// A comma or a control character, which no trace field may hold.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "," || scalar.value < 0x20 || scalar.value == 0x7f || (0x80..<0xa0).contains(scalar.value)
    }

    /// Whether `token` can be written as an envelope or push id as it is: 1 to 64 characters of
    /// `[A-Za-z0-9_-]`.
    static func isTokenRepresentable(_ token: String) -> Bool {
        var count = 0
        for byte in token.utf8 {
            count += 1
            guard count <= 64 else { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return count > 0
    }

    /// Whether `route` can be written as it is: 1 to 128 scalars, none forbidden.
    static func isRepresentable(_ route: some StringProtocol) -> Bool {
        var scalars = 0
        for scalar in route.unicodeScalars {
            scalars += 1
            if scalars > maximumLabelLength || isForbidden(scalar) { return false }
        }
        return scalars > 0
    }
}
