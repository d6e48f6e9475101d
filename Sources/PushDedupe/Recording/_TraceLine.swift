/// Writes trace lines (`TraceFormat`) into a buffer with room for at least the longest line the
/// format allows, byte by byte without growing or re-checking an array: appending to an array
/// per byte cost more than the rest of recording together. The recorder and `TraceWriter` both
/// write through it.
package struct _TraceLine {
    /// The longest line: a time (22 bytes with its comma), a kind (11), an envelope token (65), a
    /// route and a source of 128 scalars of up to 4 bytes each (513 each), a truth (4), a push id
    /// (65), the suppressed value and the newline (14).
    package static let capacity = 1_207

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    package private(set) var count = 0

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= Self.capacity)
        self.buffer = buffer
    }

    /// The bytes written.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count])) }

    package mutating func byte(_ value: UInt8) {
        buffer[count] = value
        count += 1
    }

    package mutating func text(_ value: StaticString) {
        value.withUTF8Buffer { append($0) }
    }

    /// A string the buffer has room for (not checked against the format: the caller checks it,
    /// or sized the buffer for it).
    package mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { append($0) }
    }

    /// UTF-8 text the buffer has room for (not checked against the format).
    package mutating func text(_ value: [UInt8]) {
        value.withUnsafeBufferPointer { append($0) }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= buffer.count - count, "a field longer than the format allows")
        _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + bytes.count)]).initialize(fromContentsOf: bytes)
        count += bytes.count
    }

    mutating func decimal(_ value: UInt64) {
        digits(value, count: nil)
    }

    /// `value` in decimal, padded with leading zeros to `count` digits when given. Written last
    /// digit first, then reversed in place: a division by the constant 10 is a multiply, where a
    /// division by a running power of ten is not.
    private mutating func digits(_ value: UInt64, count: Int?) {
        let start = self.count
        var rest = value
        repeat {
            byte(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if let count { while self.count - start < count { byte(UInt8(ascii: "0")) } }
        var low = start, high = self.count - 1
        while low < high {
            buffer.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// The low `digits` hex digits of `value`, lower case.
    mutating func hex(_ value: UInt64, digits: Int) {
        for position in stride(from: digits - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * position)) & 0xf
            byte(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    /// The lower-case canonical UUID of `id`'s 128 bits.
    package mutating func uuid(_ id: EnvelopeID) {
        hex(id.high >> 32, digits: 8)
        byte(UInt8(ascii: "-"))
        hex(id.high >> 16, digits: 4)
        byte(UInt8(ascii: "-"))
        hex(id.high, digits: 4)
        byte(UInt8(ascii: "-"))
        hex(id.low >> 48, digits: 4)
        byte(UInt8(ascii: "-"))
        hex(id.low, digits: 12)
    }

    /// `fp:` and 16 hex digits.
    mutating func routeToken(_ digest: UInt64) {
        text("fp:")
        hex(digest, digits: 16)
    }

    /// Decimal milliseconds with the fraction's trailing zeros dropped (`7`, `4.5`,
    /// `180.000125`).
    package mutating func time(nanoseconds: Int64) {
        if nanoseconds < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude
        decimal(magnitude / 1_000_000)
        var fraction = magnitude % 1_000_000
        guard fraction != 0 else { return }
        byte(UInt8(ascii: "."))
        var count = 6
        while fraction % 10 == 0 {
            fraction /= 10
            count -= 1
        }
        digits(fraction, count: count)
    }

    /// `label` cut to 128 scalars, with every comma and control character replaced by `_`.
    mutating func label(_ label: String) {
        var label = label
        label.withUTF8 { bytes in
            var scalars = 0
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                let width = Self.scalarWidth(lead)
                if scalars == TraceFormat.maximumLabelLength { return }
                scalars += 1
                if Self.isForbidden(bytes, at: index) {
                    byte(UInt8(ascii: "_"))
                } else {
                    for offset in 0..<width { byte(bytes[index + offset]) }
                }
                index += width
            }
        }
    }

    /// Whether `route` can be written as it is: 1 to 128 scalars, none forbidden.
    static func isRepresentable(_ route: String) -> Bool {
        var route = route
        return route.withUTF8 { bytes in
            var scalars = 0
            var index = 0
            while index < bytes.count {
                scalars += 1
                if scalars > TraceFormat.maximumLabelLength || isForbidden(bytes, at: index) { return false }
                index += scalarWidth(bytes[index])
            }
            return scalars > 0
        }
    }

    /// The bytes of the scalar that starts with `lead` (valid UTF-8, as every `String` is).
    private static func scalarWidth(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
    }

    /// Whether the scalar at `index` is a comma or a control character (C0, DEL, C1: U+0080 to
    /// U+009F, encoded `C2 80` to `C2 9F`), which no trace field may hold: the byte form of
    /// ``TraceFormat/isControl(_:)``, plus the separator.
    private static func isForbidden(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let lead = bytes[index]
        if lead < 0x20 || lead == UInt8(ascii: ",") || lead == 0x7f { return true }
        return lead == 0xc2 && (0x80...0x9f).contains(bytes[index + 1])
    }
}
