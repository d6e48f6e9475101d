import PushDedupe

/// The incremental parser behind ``TraceReader``: feed it chunks split anywhere, then `finish`.
struct TraceParser {
    /// What is known about each envelope created by a payload: 12 bytes, since a 10⁷-line trace
    /// may hold millions of them.
    private struct EnvelopeRecord {
        var route: UInt32
        /// The payload's line, saturating at `UInt32.max`.
        var line: UInt32
        /// 0 for a canonical UUID token (its id is its value, whatever the letter case); otherwise
        /// 32 bits of an independent digest of the token, odd, so two different tokens that
        /// `EnvelopeID(token:)` maps to the same id are told apart (a pair that also shares these
        /// bits would first need a 2⁻¹²⁸ collision).
        var tokenCheck: UInt32
    }

    let fileName: String
    private var line = 0
    private var sawHeader = false
    private var sawAnyByte = false
    private var summary: String?
    private var previousTime: Int64?
    private var events: [WorkloadEvent] = []
    private var routes: [String] = []
    private var fingerprints: [RouteFingerprint] = []
    // Keyed by bytes, not `String`: Swift compares strings by Unicode canonical equivalence, but a
    // fingerprint digests the exact UTF-8, so `café` spelled NFC and NFD are two routes.
    private var routeIndex: [[UInt8]: UInt32] = [:]
    private var sources: [String] = []
    private var sourceIndex: [[UInt8]: UInt16] = [:]
    private var envelopes: [EnvelopeID: EnvelopeRecord] = [:]
    /// The unfinished last line of the previous chunk.
    private var partial: [UInt8] = []
    /// Field boundaries of the current line, reused.
    private var fieldBounds: [Range<Int>] = []

    init(fileName: String) {
        self.fileName = fileName
    }

    /// Parses every complete line of `chunk`, keeping the unfinished tail for the next chunk.
    mutating func consume(_ chunk: [UInt8]) throws(TraceError) {
        guard !chunk.isEmpty else { return }
        sawAnyByte = true
        var start = 0
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if partial.isEmpty {
                try process(chunk, start..<newline)
            } else {
                try appendPartial(chunk[start..<newline])
                try processPartial()
            }
            start = newline + 1
        }
        if start < chunk.count {
            try appendPartial(chunk[start...])
        }
    }

    /// Parses the last line if it had no newline and returns the workload.
    mutating func finish() throws(TraceError) -> Workload {
        if !partial.isEmpty { try processPartial() }
        guard sawAnyByte else { throw error(at: 0, .emptyFile, "empty file") }
        guard sawHeader else { throw error(at: 0, .emptyFile, "no header line (expected \(TraceFormat.header))") }
        return Workload(name: fileName, summary: summary ?? "Imported trace \(fileName)", routes: routes,
                        sources: sources, events: events)
    }

    private mutating func appendPartial(_ bytes: ArraySlice<UInt8>) throws(TraceError) {
        guard partial.count + bytes.count <= TraceFormat.maximumLineLength else {
            throw error(at: line + 1, .overlongField, "line longer than \(TraceFormat.maximumLineLength) bytes")
        }
        partial.append(contentsOf: bytes)
    }

    private mutating func processPartial() throws(TraceError) {
        var bytes: [UInt8] = []
        swap(&bytes, &partial)
        try process(bytes, bytes.indices)
        bytes.removeAll(keepingCapacity: true)
        swap(&bytes, &partial)
    }

    // MARK: Lines

    private mutating func process(_ buffer: [UInt8], _ range: Range<Int>) throws(TraceError) {
        line += 1
        var lower = range.lowerBound
        var upper = range.upperBound
        guard upper - lower <= TraceFormat.maximumLineLength else {
            throw error(at: line, .overlongField, "line longer than \(TraceFormat.maximumLineLength) bytes")
        }
        if line == 1 && upper - lower >= 3 && buffer[lower] == 0xef && buffer[lower + 1] == 0xbb && buffer[lower + 2] == 0xbf {
            lower += 3
        }
        if upper > lower && buffer[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
        guard lower < upper else { return }
        if buffer[lower] == UInt8(ascii: "#") {
            if summary == nil && !sawHeader {
                let text = String(decoding: buffer[(lower + 1)..<upper], as: UTF8.self)
                let trimmed = text.drop { $0 == " " }
                if !trimmed.isEmpty { summary = String(trimmed) }
            }
            return
        }
        guard sawHeader else {
            guard buffer[lower..<upper].elementsEqual(TraceFormat.header.utf8) else {
                throw error(at: line, .badHeader,
                            "bad header '\(quoted(buffer[lower..<upper]))' (expected \(TraceFormat.header))")
            }
            sawHeader = true
            return
        }
        try processEvent(buffer, lower..<upper)
    }

    private mutating func processEvent(_ buffer: [UInt8], _ range: Range<Int>) throws(TraceError) {
        fieldBounds.removeAll(keepingCapacity: true)
        var fieldStart = range.lowerBound
        for index in range where buffer[index] == UInt8(ascii: ",") {
            fieldBounds.append(fieldStart..<index)
            fieldStart = index + 1
        }
        fieldBounds.append(fieldStart..<range.upperBound)
        guard fieldBounds.count == TraceFormat.columnCount else {
            throw error(at: line, .wrongColumnCount,
                        "expected \(TraceFormat.columnCount) columns, found \(fieldBounds.count)")
        }
        let timeField = buffer[fieldBounds[0]]
        let kindField = buffer[fieldBounds[1]]
        let envelopeField = buffer[fieldBounds[2]]
        let fingerprintField = buffer[fieldBounds[3]]
        let sourceField = buffer[fieldBounds[4]]
        let truthField = buffer[fieldBounds[5]]

        guard let nanoseconds = timeField.withUnsafeBufferPointer({ TraceFormat.parseMilliseconds($0) }) else {
            throw error(at: line, .badNumber, "bad number '\(quoted(timeField))' in time_ms")
        }
        if let previousTime, nanoseconds < previousTime {
            throw error(at: line, .decreasingTime, "time_ms decreases (\(quoted(timeField)) after "
                        + "\(TraceFormat.milliseconds(previousTime)))")
        }

        let kind: EventKind
        if kindField.elementsEqual("payload".utf8) {
            kind = .payload
        } else if kindField.elementsEqual("emit".utf8) {
            kind = .emit
        } else if kindField.elementsEqual("relaunch".utf8) {
            try checkLifecycleFields(kind: "relaunch")
            previousTime = nanoseconds
            events.append(.relaunch(at: Timestamp(nanoseconds: nanoseconds)))
            return
        } else if kindField.elementsEqual("background".utf8) {
            try checkLifecycleFields(kind: "background")
            previousTime = nanoseconds
            events.append(.background(at: Timestamp(nanoseconds: nanoseconds)))
            return
        } else {
            throw error(at: line, .unknownKind,
                        "unknown kind '\(quoted(kindField))' (expected payload, emit, relaunch or background)")
        }

        guard envelopeField.count <= TraceFormat.maximumEnvelopeLength else {
            throw error(at: line, .overlongField,
                        "envelope is \(envelopeField.count) characters long (at most \(TraceFormat.maximumEnvelopeLength))")
        }
        guard !envelopeField.isEmpty, envelopeField.allSatisfy(TraceFormat.isEnvelopeByte) else {
            throw error(at: line, .invalidField, "envelope '\(quoted(envelopeField))' is not 1–64 of [A-Za-z0-9_-]")
        }

        try checkText(fingerprintField, field: "fingerprint", maximum: TraceFormat.maximumFingerprintLength)
        if fingerprintField.isEmpty && kind == .payload {
            throw error(at: line, .invalidField, "a payload needs a fingerprint")
        }
        try checkText(sourceField, field: "source", maximum: TraceFormat.maximumSourceLength)

        let truth: Truth
        if truthField.elementsEqual("new".utf8) {
            truth = .new
        } else if truthField.elementsEqual("dup".utf8) {
            truth = .dup
        } else if truthField.isEmpty {
            truth = .unknown
        } else {
            throw error(at: line, .invalidField, "unknown truth '\(quoted(truthField))' (expected new, dup or empty)")
        }

        let token = String(decoding: envelopeField, as: UTF8.self)
        let envelope = EnvelopeID(token: token)
        let tokenCheck = Self.isCanonicalUUID(envelopeField)
            ? 0 : UInt32(truncatingIfNeeded: DeterministicHashing.fnv1a64(envelopeField, seed: 0x3c6e_f372_fe94_f82b)) | 1
        let route: UInt32
        switch kind {
        case .payload:
            if let record = envelopes[envelope] {
                if record.tokenCheck == tokenCheck {
                    throw error(at: line, .duplicateEnvelope,
                                "payload envelope '\(token)' already created on line \(record.line)")
                }
                throw error(at: line, .envelopeTokenCollision,
                            "envelope '\(token)' maps to the same id as a different token on line \(record.line)")
            }
            route = try intern(route: fingerprintField)
            envelopes[envelope] = EnvelopeRecord(route: route, line: UInt32(clamping: line), tokenCheck: tokenCheck)
        case .emit:
            guard let record = envelopes[envelope] else {
                throw error(at: line, .unknownEnvelope, "emit of envelope '\(token)' that no earlier payload created")
            }
            guard record.tokenCheck == tokenCheck else {
                throw error(at: line, .envelopeTokenCollision,
                            "envelope '\(token)' maps to the same id as a different token on line \(record.line)")
            }
            if !fingerprintField.isEmpty && !fingerprintField.elementsEqual(routes[Int(record.route)].utf8) {
                throw error(at: line, .fingerprintMismatch,
                            "emit fingerprint '\(quoted(fingerprintField))' differs from "
                            + "'\(routes[Int(record.route)])' of its payload on line \(record.line)")
            }
            route = record.route
        case .relaunch, .background:
            // Returned above, once its empty fields were checked.
            return
        }
        let source = try intern(source: sourceField)
        previousTime = nanoseconds
        events.append(WorkloadEvent(time: Timestamp(nanoseconds: nanoseconds), kind: kind, envelope: envelope,
                                    fingerprint: fingerprints[Int(route)], route: route, source: source, truth: truth))
    }

    // MARK: Fields

    /// A relaunch is `TIME,relaunch,,,,` and a background `TIME,background,,,,`: every field after
    /// the kind must be empty.
    private func checkLifecycleFields(kind: String) throws(TraceError) {
        for (column, name) in zip(2..., ["envelope", "fingerprint", "source", "truth"]) where !fieldBounds[column].isEmpty {
            throw error(at: line, .invalidField, "a \(kind) line has only a time; its \(name) must be empty")
        }
    }

    /// Valid UTF-8 without control characters, at most `maximum` Unicode scalars.
    private func checkText(_ bytes: ArraySlice<UInt8>, field: String, maximum: Int) throws(TraceError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = 0
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard scalar.value >= 0x20 && scalar.value != 0x7f && !(0x80..<0xa0).contains(scalar.value) else {
                    throw error(at: line, .invalidField, "\(field) contains a control character")
                }
                scalars += 1
            case .emptyInput:
                break decoding
            case .error:
                throw error(at: line, .invalidField, "\(field) is not valid UTF-8")
            }
        }
        guard scalars <= maximum else {
            throw error(at: line, .overlongField, "\(field) is \(scalars) Unicode code points long (at most \(maximum))")
        }
    }

    private mutating func intern(route bytes: ArraySlice<UInt8>) throws(TraceError) -> UInt32 {
        let key = Array(bytes)
        if let index = routeIndex[key] { return index }
        guard routes.count < Int(UInt32.max) else {
            throw error(at: line, .tooManyLabels, "more than \(UInt32.max) distinct fingerprints")
        }
        let index = UInt32(routes.count)
        let text = String(decoding: bytes, as: UTF8.self)
        routes.append(text)
        fingerprints.append(RouteFingerprint(route: text))
        routeIndex[key] = index
        return index
    }

    private mutating func intern(source bytes: ArraySlice<UInt8>) throws(TraceError) -> UInt16 {
        let key = Array(bytes)
        if let index = sourceIndex[key] { return index }
        guard sources.count <= Int(UInt16.max) else {
            throw error(at: line, .tooManyLabels, "more than \(Int(UInt16.max) + 1) distinct source labels")
        }
        let index = UInt16(sources.count)
        sources.append(String(decoding: bytes, as: UTF8.self))
        sourceIndex[key] = index
        return index
    }

    /// `8-4-4-4-12` hexadecimal digits: the tokens `EnvelopeID(token:)` parses as UUIDs.
    private static func isCanonicalUUID(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) else { return false }
            }
        }
        return true
    }

    // MARK: Errors

    private func error(at line: Int, _ kind: TraceError.Kind, _ reason: String) -> TraceError {
        TraceError(fileName: fileName, line: line, kind: kind, reason: reason)
    }

    /// Field text for a message: at most 40 characters, control characters shown as `?`.
    private func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(160), as: UTF8.self)
        let shown = String(text.unicodeScalars.prefix(40).map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
        return text.unicodeScalars.count > 40 ? shown + "…" : shown
    }
}
