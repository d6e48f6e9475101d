/// Writes one trace line into a buffer sized for the longest line the format allows, byte by
/// byte without growing or re-checking an array: appending to an array per byte cost more than
/// the rest of recording together.
struct _TraceLine {
    /// The longest line: a time (22 bytes with its comma), a kind (11), an envelope token (65), a
    /// route and a source of 128 scalars of up to 4 bytes each (513 each), the empty truth (1), a
    /// push id (65), the suppressed value and the newline (14).
    static let capacity = 1_204

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= Self.capacity)
        self.buffer = buffer
    }

    /// The bytes written.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<count])) }

    mutating func byte(_ value: UInt8) {
        buffer[count] = value
        count += 1
    }

    mutating func text(_ value: StaticString) {
        value.withUTF8Buffer { append($0) }
    }

    /// A string already checked to fit its field.
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { append($0) }
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
    mutating func uuid(_ id: EnvelopeID) {
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
    mutating func time(nanoseconds: Int64) {
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
                if scalars == Self.maximumLabelLength { return }
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

    /// The longest route and source the format allows, in Unicode scalars.
    static var maximumLabelLength: Int { 128 }

    /// Whether `route` can be written as it is: 1 to 128 scalars, none forbidden.
    static func isRepresentable(_ route: String) -> Bool {
        var route = route
        return route.withUTF8 { bytes in
            var scalars = 0
            var index = 0
            while index < bytes.count {
                scalars += 1
                if scalars > maximumLabelLength || isForbidden(bytes, at: index) { return false }
                index += scalarWidth(bytes[index])
            }
            return scalars > 0
        }
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

    /// The bytes of the scalar that starts with `lead` (valid UTF-8, as every `String` is).
    private static func scalarWidth(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
    }

    /// Whether the scalar at `index` is a comma or a control character (C0, DEL, C1: U+0080 to
    /// U+009F, encoded `C2 80` to `C2 9F`), which no trace field may hold.
    private static func isForbidden(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let lead = bytes[index]
        if lead < 0x20 || lead == UInt8(ascii: ",") || lead == 0x7f { return true }
        return lead == 0xc2 && (0x80...0x9f).contains(bytes[index + 1])
    }
}
