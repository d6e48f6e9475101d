/// The 128-bit identity of one route envelope: what the router records as consumed.
///
/// Envelopes are usually created from a `UUID` (see `EnvelopeID(uuid:)`) or, in traces, from a
/// string token. UUIDv4 fixes six of its bits (version and variant), so the raw halves must not
/// index a table; ``hash64`` mixes all 128 bits first.
public struct EnvelopeID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The most significant 64 bits (bytes 0–7 of a UUID, big-endian).
    public var high: UInt64
    /// The least significant 64 bits (bytes 8–15 of a UUID, big-endian).
    public var low: UInt64

    @inlinable
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Derives an id from a string token.
    ///
    /// A token in canonical UUID form (`8-4-4-4-12` hexadecimal digits, either case) maps to the
    /// same bits as `EnvelopeID(uuid:)` of that UUID. Any other token maps to two differently
    /// seeded FNV-1a 64 digests, so two distinct tokens collide with probability about 2⁻¹²⁷ (the
    /// two FNV states' lowest bits always differ, so the pair carries 127 free bits).
    ///
    /// - Complexity: O(*n*) in the token's UTF-8 length.
    public init(token: some StringProtocol) {
        if let parsed = EnvelopeID(canonicalUUIDString: token) {
            self = parsed
        } else {
            self.high = DeterministicHashing.fnv1a64(token.utf8, seed: 0x5555_5555_5555_5555)
            self.low = DeterministicHashing.fnv1a64(token.utf8, seed: 0xaaaa_aaaa_aaaa_aaaa)
        }
    }

    /// A deterministic 64-bit digest of all 128 bits, for indexing tables and deriving Bloom
    /// probes. Its low bits are well mixed.
    ///
    /// `low` goes through an odd multiply (a bijection) before it meets `high`, so ids that differ
    /// in one half never collide, and `mix64` then spreads every input bit over the output. Three
    /// multiplies deep: the filters' and `direct-mapped`'s lookups wait on this value, so each
    /// multiply saved shows in their ns per consume.
    ///
    /// - Complexity: O(1).
    @inlinable
    public var hash64: UInt64 {
        DeterministicHashing.mix64(high ^ (low &* 0x9e37_79b9_7f4a_7c15))
    }

    /// The canonical lower-case UUID rendering of the 128 bits.
    public var description: String {
        var digits = ""
        for (index, half) in [high, low].enumerated() {
            for nibble in (0..<16).reversed() {
                let position = index * 16 + (15 - nibble)
                if position == 8 || position == 12 || position == 16 || position == 20 { digits += "-" }
                digits += String((half >> UInt64(nibble * 4)) & 0xf, radix: 16)
            }
        }
        return digits
    }

    private init?(canonicalUUIDString text: some StringProtocol) {
        // Reads the view in place: a push id is converted per event, which must not allocate.
        guard text.utf8.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var nibbles = 0
        for (position, byte) in text.utf8.enumerated() {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            if nibbles < 16 {
                high = high << 4 | UInt64(value)
            } else {
                low = low << 4 | UInt64(value)
            }
            nibbles += 1
        }
        self.init(high: high, low: low)
    }
}
