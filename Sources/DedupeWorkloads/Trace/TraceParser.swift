import PushDedupe

/// The incremental parser behind ``TraceReader``: feed it chunks split anywhere, then `finish`.
///
/// The non-mutating checks each event line calls are `@inline(__always)`: called out of line from
/// the mutating per-line path, each call copied the whole parser (a 10⁶-line trace parsed 1.2×
/// slower).
struct TraceParser {
    /// What is known about each envelope created by a payload: 16 bytes, since a 10⁷-line trace
    /// may hold millions of them.
    private struct EnvelopeRecord {
        var route: UInt32
        /// The payload's line, saturating at `UInt32.max`.
        var line: UInt32
        /// The check of ``identify(_:)`` of the token that created it.
        var tokenCheck: UInt32
        /// The payload's push index, inherited by its emits, or `WorkloadEvent.noPush`.
        var push: UInt32
    }

    /// What is known about each distinct push id; its index is its slot in `pushes`.
    private struct PushRecord {
        /// The first line naming it, saturating at `UInt32.max`.
        var line: UInt32
        var tokenCheck: UInt32
    }

    let fileName: String
    private var line = 0
    private var sawHeader = false
    private var sawAnyByte = false
    private var summary: String?
    private var previousTime: Int64?
    /// The events as columns, their envelope slots the ones `envelopeIndex` gives (every
    /// envelope's first appearance is the payload that creates it), so the parser's index is the
    /// only one built.
    private var events = WorkloadEvents()
    private var routes: [String] = []
    private var fingerprints: [RouteFingerprint] = []
    // Keyed by bytes, not `String`: Swift compares strings by Unicode canonical equivalence, but a
    // fingerprint digests the exact UTF-8, so `café` spelled NFC and NFD are two routes.
    private var routeIndex: [[UInt8]: UInt32] = [:]
    private var sources: [String] = []
    private var sourceIndex: [[UInt8]: UInt16] = [:]
    // Envelopes and push ids are indexed by dense slots (ids, records and a 4-byte bucket each),
    // not dictionaries: a recording-sized trace holds millions of each, and the import's peak is
    // the parser's.
    private var envelopeIDs: [EnvelopeID] = []
    private var envelopeRecords: [EnvelopeRecord] = []
    private var envelopeIndex = _EnvelopeSlotIndex()
    /// The header's column count: 6 to 9 (`TraceFormat.headers`).
    private var columnCount = TraceFormat.minimumColumnCount
    private var pushes: [EnvelopeID] = []
    private var pushRecords: [PushRecord] = []
    private var pushIndex = _EnvelopeSlotIndex()
    /// Tokens of envelopes and push ids that are not canonical UUIDs, for ``Workload/token(of:)``.
    private var tokens: [EnvelopeID: String] = [:]
    private var suppressions: [RecordedSuppression] = []
    /// Whether any envelope or push token so far was not a canonical UUID: only then can a token
    /// collide with one of the other kind, so only then are the other kind's ids looked up.
    private var sawDigestEnvelopeToken = false
    private var sawDigestPushToken = false
    /// The actions started so far, by the token that names them, with each one's start line, key
    /// and whether it ended.
    private var actions = ActionLog()
    private var actionIndex: [[UInt8]: UInt32] = [:]
    private var actionKeyIndex: [[UInt8]: UInt32] = [:]
    private var actionStarts: [(line: UInt32, key: UInt32, ended: Bool)] = []
    /// The unfinished last line of the previous chunk.
    private var partial: [UInt8] = []
    /// Field boundaries of the current line, reused.
    private var fieldBounds: [Range<Int>] = []

    /// A parser for `fileName`; `expectedBytes`, the file's size when known, reserves the events
    /// and envelopes at one per 64 bytes (an 8-column line with UUIDs is about 120), so a
    /// recording-sized trace never holds them twice while an array doubles. Pages reserved and
    /// not written are not resident.
    init(fileName: String, expectedBytes: Int = 0) {
        self.fileName = fileName
        let capacity = min(max(0, expectedBytes) / 64, 1 << 26)
        events.reserveCapacity(capacity)
        envelopeIDs.reserveCapacity(capacity)
        envelopeRecords.reserveCapacity(capacity)
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
        events.columns.envelopeTable = envelopeIDs
        events.columns.actions = actions
        return Workload(name: fileName, summary: summary ?? "Imported trace \(fileName)", routes: routes,
                        sources: sources, events: events, pushes: pushes, envelopeTokens: tokens,
                        recordedSuppressions: suppressions)
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
            guard let form = TraceFormat.headers.firstIndex(where: { buffer[lower..<upper].elementsEqual($0.utf8) }) else {
                throw error(at: line, .badHeader,
                            "bad header '\(quoted(buffer[lower..<upper]))' (expected \(TraceFormat.header), "
                            + "optionally followed by ,push_id or ,push_id,suppressed or ,push_id,suppressed,action)")
            }
            columnCount = TraceFormat.minimumColumnCount + form
            sawHeader = true
            return
        }
        try processEvent(buffer, lower..<upper)
    }

    private mutating func processEvent(_ buffer: [UInt8], _ range: Range<Int>) throws(TraceError) {
        TraceFormat.splitFields(buffer, range, into: &fieldBounds)
        guard fieldBounds.count == columnCount else {
            throw error(at: line, .wrongColumnCount,
                        "expected \(columnCount) columns as the header has, found \(fieldBounds.count)")
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
        } else if let actionKind = ActionRecord.Kind.allCases.first(where: { kindField.elementsEqual($0.traceKind.utf8) }) {
            try processAction(actionKind, at: nanoseconds, buffer)
            previousTime = nanoseconds
            return
        } else {
            throw error(at: line, .unknownKind,
                        "unknown kind '\(quoted(kindField))' (expected payload, emit, relaunch, background, "
                        + "action_start, action_finish or action_cancel)")
        }

        guard envelopeField.count <= TraceFormat.maximumTokenLength else {
            throw error(at: line, .overlongField,
                        "envelope is \(envelopeField.count) characters long (at most \(TraceFormat.maximumTokenLength))")
        }
        guard TraceFormat.isToken(envelopeField) else {
            throw error(at: line, .invalidField, "envelope '\(quoted(envelopeField))' is not 1–64 of [A-Za-z0-9_-]")
        }

        try checkText(fingerprintField, field: "fingerprint")
        if fingerprintField.isEmpty && kind == .payload {
            throw error(at: line, .invalidField, "a payload needs a fingerprint")
        }
        try checkText(sourceField, field: "source")

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

        let (envelope, tokenCheck) = Self.identify(envelopeField)
        let pushField = columnCount > TraceFormat.pushColumn ? buffer[fieldBounds[TraceFormat.pushColumn]] : buffer[0..<0]
        let pushToken = pushField.isEmpty ? nil : try identify(push: pushField)
        let layer = columnCount > TraceFormat.suppressedColumn
            ? try suppression(buffer[fieldBounds[TraceFormat.suppressedColumn]], kind: kind) : nil
        let actionField = columnCount > TraceFormat.actionColumn ? buffer[fieldBounds[TraceFormat.actionColumn]] : buffer[0..<0]
        let completedAction = actionField.isEmpty ? nil : try startedAction(actionField, on: kind)
        let route: UInt32
        let push: UInt32
        let slot: Int32
        switch kind {
        case .payload:
            if let record = envelopeRecord(envelope) {
                if record.tokenCheck == tokenCheck {
                    throw error(at: line, .duplicateEnvelope,
                                "payload envelope '\(quoted(envelopeField))' already created on line \(record.line)")
                }
                throw collision(envelopeField, line: record.line)
            }
            // Two tokens for one id need one that is not a canonical UUID.
            if tokenCheck != 0 || sawDigestPushToken, let record = pushRecord(envelope), record.tokenCheck != tokenCheck {
                throw collision(envelopeField, line: record.line)
            }
            route = try intern(route: fingerprintField)
            push = try pushToken.map { token throws(TraceError) in try intern(push: token, field: pushField) } ?? WorkloadEvent.noPush
            guard envelopeIDs.count < Int(Int32.max) - 1 else {
                throw error(at: line, .tooManyLabels, "more than \(Int32.max - 2) distinct envelopes")
            }
            slot = envelopeIndex.slot(of: envelope, in: &envelopeIDs)
            envelopeRecords.append(EnvelopeRecord(route: route, line: UInt32(clamping: line), tokenCheck: tokenCheck, push: push))
            if tokenCheck != 0 {
                tokens[envelope] = String(decoding: envelopeField, as: UTF8.self)
                sawDigestEnvelopeToken = true
            }
        case .emit:
            guard let created = envelopeIndex.slot(of: envelope, in: envelopeIDs) else {
                throw error(at: line, .unknownEnvelope,
                            "emit of envelope '\(quoted(envelopeField))' that no earlier payload created")
            }
            slot = created
            let record = envelopeRecords[Int(created)]
            guard record.tokenCheck == tokenCheck else { throw collision(envelopeField, line: record.line) }
            if !fingerprintField.isEmpty && !fingerprintField.elementsEqual(routes[Int(record.route)].utf8) {
                throw error(at: line, .fingerprintMismatch,
                            "emit fingerprint '\(quoted(fingerprintField))' differs from "
                            + "'\(routes[Int(record.route)])' of its payload on line \(record.line)")
            }
            if let pushToken { try checkEmitPush(pushToken, field: pushField, record: record) }
            route = record.route
            push = record.push
        case .relaunch, .background:
            // Returned above, once its empty fields were checked.
            return
        }
        let source = try intern(source: sourceField)
        previousTime = nanoseconds
        if let layer { suppressions.append(RecordedSuppression(event: events.count, layer: layer)) }
        if let completedAction { actions.completions.append(ActionCompletion(event: events.count, action: completedAction)) }
        events.append(WorkloadEvent(time: Timestamp(nanoseconds: nanoseconds), kind: kind, envelope: envelope,
                                    fingerprint: fingerprints[Int(route)], route: route, source: source, truth: truth,
                                    push: push),
                      slot: slot)
    }

    // MARK: Actions

    /// `TIME,action_start,,KEY,,,,,ACTION`, `TIME,action_finish,,,,,,,ACTION` or
    /// `TIME,action_cancel,,,,,,,ACTION`: the action's token in the action column, its key (on a
    /// start) in the fingerprint column, every other field empty.
    private mutating func processAction(_ kind: ActionRecord.Kind, at nanoseconds: Int64, _ buffer: [UInt8]) throws(TraceError) {
        guard columnCount > TraceFormat.actionColumn else {
            throw error(at: line, .invalidField,
                        "an \(kind.traceKind) line needs the action column (a header ending in ,push_id,suppressed,action)")
        }
        for column in 2..<TraceFormat.actionColumn where !fieldBounds[column].isEmpty && !(kind == .started && column == 3) {
            throw error(at: line, .invalidField, "an \(kind.traceKind) line has only a time, "
                        + (kind == .started ? "an action key " : "") + "and an action; its \(Self.columnNames[column]) must be empty")
        }
        let tokenField = buffer[fieldBounds[TraceFormat.actionColumn]]
        guard TraceFormat.isToken(tokenField) else {
            throw error(at: line, .invalidField, "action '\(quoted(tokenField))' is not 1–64 of [A-Za-z0-9_-]")
        }
        let record: ActionRecord
        switch kind {
        case .started:
            let keyField = buffer[fieldBounds[3]]
            guard !keyField.isEmpty else {
                throw error(at: line, .invalidField, "an action_start line needs its action key in the fingerprint column")
            }
            try checkText(keyField, field: "action key")
            if let earlier = actionIndex[Array(tokenField)] {
                throw error(at: line, .duplicateAction,
                            "action '\(quoted(tokenField))' already started on line \(actionStarts[Int(earlier)].line)")
            }
            let key = actionKeyIndex[Array(keyField)] ?? UInt32(actions.keys.count)
            if key == actions.keys.count {
                actionKeyIndex[Array(keyField)] = key
                actions.keys.append(String(decoding: keyField, as: UTF8.self))
            }
            let action = UInt32(actions.tokens.count)
            actionIndex[Array(tokenField)] = action
            actions.tokens.append(String(decoding: tokenField, as: UTF8.self))
            actionStarts.append((UInt32(clamping: line), key, false))
            record = ActionRecord(position: events.count, time: Timestamp(nanoseconds: nanoseconds), kind: kind, action: action, key: key)
        case .finished, .cancelled:
            guard let action = actionIndex[Array(tokenField)] else {
                throw error(at: line, .unknownAction,
                            "\(kind.traceKind) of action '\(quoted(tokenField))' that no earlier action_start started")
            }
            guard !actionStarts[Int(action)].ended else {
                throw error(at: line, .unknownAction, "action '\(quoted(tokenField))' already ended")
            }
            actionStarts[Int(action)].ended = true
            record = ActionRecord(position: events.count, time: Timestamp(nanoseconds: nanoseconds), kind: kind, action: action,
                                  key: actionStarts[Int(action)].key)
        }
        actions.records.append(record)
    }

    /// The action a payload's non-empty action field names: one an earlier line started. It may
    /// have ended: a completion can come twice, or after a retry.
    private func startedAction(_ field: ArraySlice<UInt8>, on kind: EventKind) throws(TraceError) -> UInt32 {
        guard kind == .payload else {
            throw error(at: line, .invalidField, "an emit names no action (only a payload an action's completion made does)")
        }
        guard let action = actionIndex[Array(field)] else {
            throw error(at: line, .unknownAction, "payload completes action '\(quoted(field))' that no earlier action_start started")
        }
        return action
    }

    // MARK: Push ids and suppressions

    @inline(__always)
    private func envelopeRecord(_ id: EnvelopeID) -> EnvelopeRecord? {
        envelopeIndex.slot(of: id, in: envelopeIDs).map { envelopeRecords[Int($0)] }
    }

    @inline(__always)
    private func pushRecord(_ id: EnvelopeID) -> PushRecord? {
        pushIndex.slot(of: id, in: pushes).map { pushRecords[Int($0)] }
    }

    /// The id and token check of a non-empty push_id field: 1–64 of `[A-Za-z0-9_-]`.
    @inline(__always)
    private func identify(push field: ArraySlice<UInt8>) throws(TraceError) -> (id: EnvelopeID, check: UInt32) {
        guard field.count <= TraceFormat.maximumTokenLength else {
            throw error(at: line, .overlongField,
                        "push_id is \(field.count) characters long (at most \(TraceFormat.maximumTokenLength))")
        }
        let token = Self.identify(field)
        guard token.check == 0 || TraceFormat.isToken(field) else {
            throw error(at: line, .invalidField, "push_id '\(quoted(field))' is not empty or 1–64 of [A-Za-z0-9_-]")
        }
        return token
    }

    /// The index of the push id `token` (of the text `field`), adding it at its first appearance.
    private mutating func intern(push token: (id: EnvelopeID, check: UInt32), field: ArraySlice<UInt8>) throws(TraceError) -> UInt32 {
        if let slot = pushIndex.slot(of: token.id, in: pushes) {
            let record = pushRecords[Int(slot)]
            guard record.tokenCheck == token.check else { throw collision(field, line: record.line) }
            return UInt32(slot)
        }
        if token.check != 0 || sawDigestEnvelopeToken, let record = envelopeRecord(token.id), record.tokenCheck != token.check {
            throw collision(field, line: record.line)
        }
        guard pushes.count < Int(Int32.max) - 1 else {
            throw error(at: line, .tooManyLabels, "more than \(Int32.max - 2) distinct push ids")
        }
        let index = UInt32(pushIndex.slot(of: token.id, in: &pushes))
        pushRecords.append(PushRecord(line: UInt32(clamping: line), tokenCheck: token.check))
        if token.check != 0 {
            tokens[token.id] = String(decoding: field, as: UTF8.self)
            sawDigestPushToken = true
        }
        return index
    }

    /// An emit's non-empty push id must be its creating payload's.
    @inline(__always)
    private func checkEmitPush(_ token: (id: EnvelopeID, check: UInt32), field: ArraySlice<UInt8>, record: EnvelopeRecord) throws(TraceError) {
        guard record.push != WorkloadEvent.noPush, pushes[Int(record.push)] == token.id else {
            let created = record.push == WorkloadEvent.noPush
                ? "none" : "'\(tokens[pushes[Int(record.push)]] ?? pushes[Int(record.push)].description)'"
            throw error(at: line, .pushMismatch,
                        "emit push_id '\(quoted(field))' differs from its payload's on line \(record.line) (\(created))")
        }
        if token.check != 0 || sawDigestPushToken, let push = pushRecord(token.id), push.tokenCheck != token.check {
            throw collision(field, line: push.line)
        }
    }

    /// The layer a `suppressed` field names: empty, `window` (payloads only) or `consumed-set`.
    @inline(__always)
    private func suppression(_ field: ArraySlice<UInt8>, kind: EventKind) throws(TraceError) -> RecordedSuppression.Layer? {
        if field.isEmpty { return nil }
        if field.elementsEqual("consumed-set".utf8) { return .consumedSet }
        if field.elementsEqual("window".utf8) {
            guard kind == .payload else {
                throw error(at: line, .invalidField, "suppressed 'window' on an emit (the window sees only payloads)")
            }
            return .window
        }
        throw error(at: line, .invalidField,
                    "unknown suppressed '\(quoted(field))' (expected window, consumed-set or empty)")
    }

    /// A token's id and check. The check is 0 for a canonical UUID token (its id is its value,
    /// whatever the letter case); otherwise 32 bits of an independent digest of the token, odd, so
    /// two different tokens that `EnvelopeID(token:)` maps to the same id are told apart (a pair
    /// that also shares these bits would first need a 2⁻¹²⁸ collision).
    private static func identify(_ token: ArraySlice<UInt8>) -> (id: EnvelopeID, check: UInt32) {
        if let id = TraceFormat.canonicalUUID(token) { return (id, 0) }
        return (TraceFormat.digestID(token),
                UInt32(truncatingIfNeeded: DeterministicHashing.fnv1a64(token, seed: 0x3c6e_f372_fe94_f82b)) | 1)
    }

    private func collision(_ token: ArraySlice<UInt8>, line other: UInt32) -> TraceError {
        error(at: line, .envelopeTokenCollision,
              "token '\(quoted(token))' maps to the same id as a different token on line \(other)")
    }

    // MARK: Fields

    /// A relaunch is `TIME,relaunch,,,,` and a background `TIME,background,,,,` (two more commas
    /// with the push_id and suppressed columns): every field after the kind must be empty.
    private func checkLifecycleFields(kind: String) throws(TraceError) {
        for column in 2..<columnCount where !fieldBounds[column].isEmpty {
            throw error(at: line, .invalidField, "a \(kind) line has only a time; its \(Self.columnNames[column]) must be empty")
        }
    }

    /// The columns' names, by position (the 9-column header's).
    private static let columnNames = TraceFormat.headers[TraceFormat.maximumColumnCount - TraceFormat.minimumColumnCount]
        .split(separator: ",").map(String.init)

    /// Valid UTF-8 without control characters, at most `TraceFormat.maximumLabelLength` Unicode
    /// scalars.
    private func checkText(_ bytes: ArraySlice<UInt8>, field: String) throws(TraceError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = 0
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard !TraceFormat.isControl(scalar) else {
                    throw error(at: line, .invalidField, "\(field) contains a control character")
                }
                scalars += 1
            case .emptyInput:
                break decoding
            case .error:
                throw error(at: line, .invalidField, "\(field) is not valid UTF-8")
            }
        }
        guard scalars <= TraceFormat.maximumLabelLength else {
            throw error(at: line, .overlongField,
                        "\(field) is \(scalars) Unicode code points long (at most \(TraceFormat.maximumLabelLength))")
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
