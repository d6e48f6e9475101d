import PushDedupe

/// One input of `dedupe-fuzz`: the files it puts in the work directory and the tool's arguments.
///
/// An argument that starts with `@` names a path in the work directory (`@trace.csv`); the
/// digest covers the arguments as written here, so it does not depend on where the work
/// directory is.
struct FuzzInput: Sendable {
    enum Kind: String, Sendable {
        case replay
        case compare
    }

    var kind: Kind
    /// The mutations applied, in order, for the findings and the inputs table.
    var mutations: [String]
    var files: [(name: String, bytes: [UInt8])]
    var arguments: [String]

    /// FNV-1a (64-bit) over the kind, every file's name and bytes, and the arguments: the same
    /// on every machine and in every process for one seed.
    var digest: UInt64 {
        var hash = FuzzDigest()
        hash.add(kind.rawValue)
        for file in files {
            hash.add(file.name)
            hash.add(file.bytes)
        }
        for argument in arguments { hash.add(argument) }
        return hash.value
    }

    /// The arguments with every `@name` resolved against `directory`.
    func resolvedArguments(in directory: String) -> [String] {
        arguments.map { $0.hasPrefix("@") ? directory + "/" + $0.dropFirst() : $0 }
    }
}

/// 64-bit FNV-1a, with a separator after each part so `["ab", "c"]` and `["a", "bc"]` differ.
struct FuzzDigest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { mix(byte) }
        mix(0xff)
        mix(0x00)
    }

    mutating func add(_ text: String) { add(text.utf8) }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    /// `value` as 16 hexadecimal digits.
    var hex: String { Self.hex(value) }

    /// A digest as 16 hexadecimal digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The fuzzer's random numbers: SplitMix64, seeded per input from the round's seed and the
/// input's index, so input *i* is the same whatever ran before it.
struct FuzzRandom {
    private var generator: SplitMix64

    init(seed: UInt64, index: Int) {
        // Another odd multiplier than SplitMix64's own increment, so no two inputs' streams overlap.
        var round = SplitMix64(seed: seed)
        generator = SplitMix64(seed: round.next() ^ (UInt64(index) &* 0xd1b5_4a32_d192_ed03))
    }

    /// A value in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(generator.next() % UInt64(bound))
    }

    /// True with probability `numerator` / `denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// One of `choices`, or `nil` when there is none. Not the standard library's
    /// `randomElement(using:)`, whose algorithm may change between toolchains.
    mutating func element<T>(of choices: [T]) -> T? {
        choices.isEmpty ? nil : pick(choices)
    }

    mutating func next() -> UInt64 { generator.next() }
}
