import DedupeWorkloads
import Foundation

/// What one fuzz input did, judged against the tool's contract (`Guides/CLI.md`, *Exit codes*):
/// exit 0 (for `compare` also 1) with sound outputs, or exit 2 with exactly one error line.
struct FuzzOutcome: Equatable {
    enum Category: String, CaseIterable {
        case accepted
        case refused
        /// A signal (a Swift runtime trap is SIGILL), or an exit code the contract does not have.
        case crash
        /// Still running at the per-input timeout.
        case hang
        /// Exit 0 (or 1) where the input means nothing or the outputs hold `nan`, `inf`, raw
        /// control characters, a broken table or an oversized message.
        case wrongAccept = "wrong accept"
        /// Exit 2 without exactly one `dedupe-bench: error: …` line on stderr.
        case badRefusal = "bad refusal"

        /// Whether the category fails the round.
        var isFinding: Bool { ![.accepted, .refused].contains(self) }
    }

    var category: Category
    /// The crash site (`DeviceProfile.swift:118`), what was wrong, or the refusal's message.
    var detail: String

    /// The longest line a message may be: `MessageText` cuts each quoted string at 200 scalars,
    /// and a message quotes a few.
    static let longestMessageLine = 2_000

    /// Judges `child`'s run of `input`. `outputFiles` are the files the run left in its work
    /// directory's outputs (reports, decisions, the compare table), read for `nan` and `inf`.
    static func judge(_ input: FuzzInput, _ child: FuzzChild, outputFiles: [(name: String, bytes: Data)]) -> FuzzOutcome {
        let error = String(decoding: child.error, as: UTF8.self)
        switch child.ending {
        case .timedOut: return FuzzOutcome(category: .hang, detail: "no exit within the timeout")
        case .signalled(let signal): return FuzzOutcome(category: .crash, detail: crashSite(error) ?? "signal \(signal)")
        case .exited(2): return refusal(error)
        case .exited(let code) where code == 0 || (code == 1 && input.kind == .compare):
            // compare's 1 is a regression found, a verdict like 0.
            return acceptance(input, child, outputFiles: outputFiles) ?? FuzzOutcome(category: .accepted, detail: "")
        case .exited(let code):
            return FuzzOutcome(category: .crash, detail: crashSite(error) ?? "exit \(code)")
        }
    }

    /// The first frame of the backtrace in the package's own sources, as `File.swift:LINE`.
    static func crashSite(_ error: String) -> String? {
        for line in error.split(separator: "\n") where line.contains("/Sources/") || line.contains("/Benchmarks/") {
            guard let swift = line.range(of: ".swift:") else { continue }
            let name = line[..<swift.lowerBound].split(separator: "/").last ?? ""
            let digits = line[swift.upperBound...].prefix { $0.isNumber }
            if !name.isEmpty && !digits.isEmpty { return "\(name).swift:\(digits)" }
        }
        // A debug build's trap: `…/DeviceProfile.swift:118: Fatal error: …`.
        if let fatal = error.range(of: ": Fatal error") {
            let location = error[..<fatal.lowerBound].split(whereSeparator: { $0 == "/" || $0 == "\n" || $0 == " " }).last ?? ""
            if location.contains(".swift:") { return String(location) }
        }
        return nil
    }

    static func refusal(_ error: String) -> FuzzOutcome {
        let prefix = "dedupe-bench: error: "
        let lines = error.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[1].isEmpty else {
            return FuzzOutcome(category: .badRefusal, detail: "\(max(0, lines.count - 1)) line(s) on stderr")
        }
        guard lines[0].hasPrefix(prefix), lines[0].count > prefix.count else {
            return FuzzOutcome(category: .badRefusal, detail: "no 'dedupe-bench: error: ' message")
        }
        guard lines[0].utf8.count <= longestMessageLine else {
            return FuzzOutcome(category: .badRefusal, detail: "a message of \(lines[0].utf8.count) bytes")
        }
        return FuzzOutcome(category: .refused, detail: String(lines[0].dropFirst(prefix.count)))
    }

    /// Why an accepted run was wrong to accept, or `nil`.
    static func acceptance(_ input: FuzzInput, _ child: FuzzChild, outputFiles: [(name: String, bytes: Data)]) -> FuzzOutcome? {
        func wrong(_ detail: String) -> FuzzOutcome { FuzzOutcome(category: .wrongAccept, detail: detail) }
        if input.kind == .replay, let trace = input.files.first(where: { $0.name == "trace.csv" }) {
            switch Result(catching: { () throws(TraceError) in try TraceReader.read(bytes: trace.bytes, fileName: "trace.csv") }) {
            case .failure: return wrong("a trace the parser refuses")
            case .success(let workload) where !workload.events.contains(where: { $0.kind == .payload }):
                return wrong("a trace without a payload")
            case .success: break
            }
        }
        let output = String(decoding: child.output, as: UTF8.self)
        for (name, text) in [("stdout", output)] + outputFiles.map({ ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }) {
            if let token = nonFiniteToken(in: text) { return wrong("'\(token)' in \(name)") }
        }
        if output.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" }) { return wrong("a control character on stdout") }
        for line in String(decoding: child.error, as: UTF8.self).split(separator: "\n") {
            if line.utf8.count > longestMessageLine { return wrong("a stderr line of \(line.utf8.count) bytes") }
            if line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return wrong("a control character on stderr") }
        }
        if input.kind == .compare {
            if output.contains(" 0 unit(s) gated") { return wrong("a gate of 0 units") }
            if let table = outputFiles.first(where: { $0.name == "table.tsv" }), let problem = tableProblem(table.bytes) {
                return wrong(problem)
            }
        }
        return nil
    }

    /// `nan` or `inf` (any case, `infinity` too) standing alone, not inside a word such as
    /// `info` or `banana`.
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    static func nonFiniteToken(in text: String) -> String? {
        let bytes = Array(text.utf8)
        func isLetter(_ index: Int) -> Bool {
            guard bytes.indices.contains(index) else { return false }
            let byte = bytes[index] | 0x20
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        }
        func matches(_ token: String, at index: Int) -> Bool {
            let token = Array(token.utf8)
            guard index + token.count <= bytes.count else { return false }
            return (0..<token.count).allSatisfy { bytes[index + $0] | 0x20 == token[$0] } && !isLetter(index + token.count)
        }
        for index in bytes.indices where !isLetter(index - 1) {
            for token in ["nan", "infinity", "inf"] where matches(token, at: index) { return token }
        }
        return nil
    }

    /// Why a `compare --out` table is broken: rows with another column count than the header,
    /// or a control character other than the separators.
    static func tableProblem(_ bytes: Data) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7f }) {
            return "a control character in the table"
        }
        let rows = text.split(separator: "\n")
        guard let columns = rows.first?.split(separator: "\t", omittingEmptySubsequences: false).count else { return "an empty table" }
        if let row = rows.firstIndex(where: { $0.split(separator: "\t", omittingEmptySubsequences: false).count != columns }) {
            return "table row \(row + 1) has another column count than the header"
        }
        return nil
    }
}
