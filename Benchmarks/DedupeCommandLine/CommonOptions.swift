/// The options and value forms every tool spells the same way.
package enum CommonOptions {
    package static let seed = OptionSpec("seed", value: "N", help: "Seed for the workloads (default 42).")

    package static func seed(_ arguments: ParsedArguments) throws(CommandLineError) -> UInt64 {
        try arguments.value(seed, default: 42, expecting: "an unsigned 64-bit integer") { integer($0) }
    }

    /// `text` as a plain decimal integer: ASCII digits only. Swift's `init?(_:)` also takes a
    /// leading `+` (or `-`), which no option documents.
    package static func integer<T: FixedWidthInteger>(_ text: String) -> T? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return T(text)
    }

    /// `text` as a plain decimal number: digits with at most one `.` between digits. `Double(_:)`
    /// also takes a sign, exponents, hexadecimal, `inf` and `nan`.
    package static func decimal(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ part in
            !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }) else { return nil }
        return Double(text)
    }
}
