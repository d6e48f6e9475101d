import struct Foundation.Date
import class Foundation.NSLock

/// Records what an app's deduplicator sees as a trace file that `dedupe-bench replay` reads
/// as it is (format: `Guides/TraceFormat.md`; recording from an app: `Guides/Recording.md`).
///
/// ```swift
/// #if DEBUG
/// let recorder = try TraceRecorder.recording(to: traceURL, routes: .hashed())   // starts, or resumes after a relaunch
/// let dedupe = MainActorDeduplicator.recommended(store: .file(storeURL), recorder: recorder)
/// #endif
/// ```
///
/// What it writes:
/// - a comment naming the recorder and the route mode, a comment `# origin_unix_ms=…` with the
///   wall-clock time the trace's time 0 stands for, then the header
///   `time_ms,kind,envelope,fingerprint,source,truth,push_id,suppressed`;
/// - every event the deduplicator decided, suppressed or not: per payload
///   `TIME,payload,ENVELOPE,ROUTE,SOURCE,,PUSH_ID,SUPPRESSED`, per emit
///   `TIME,emit,ENVELOPE,,SOURCE,,,SUPPRESSED`, and `TIME,background,,,,,,` /
///   `TIME,relaunch,,,,,,`. `truth` stays empty: the app cannot know the right answer.
///   `SUPPRESSED` is empty when the event navigated, `window` or `consumed-set` when a layer
///   dropped it; replay ignores it;
/// - `TIME` is milliseconds with every nanosecond digit; a time earlier than the latest one
///   written is written as the latest, the rule every strategy applies, so the file stays valid;
/// - `ENVELOPE` is unique per payload line, as the format requires. A payload given with the
///   push's id gets a fresh token per delivery (`d1`, `d2`, … unique in the file, across
///   relaunches too), and `PUSH_ID` carries the id: 1–64 characters of `[A-Za-z0-9_-]` as the
///   app passed them, any other id as the canonical UUID of its `EnvelopeID(token:)` bits, so
///   that replay keyed on `PUSH_ID` rebuilds exactly the envelope ids the app used. A payload
///   given a `UUID` writes the UUID, with `PUSH_ID` empty; given a `UUID` an earlier payload
///   used, it writes a fresh token and the UUID as `PUSH_ID` (the app evidently keyed the
///   envelope on something stable). An emit names the token of the first payload line of its
///   envelope;
/// - `ROUTE` as ``RouteRecording`` says. A route the format cannot hold as it is (empty, over 128
///   characters, a comma or a control character) is written as its digest token instead; a
///   payload given as a `RouteFingerprint` is written as its own token. `SOURCE` is cut to 128
///   characters, with commas and control characters replaced by `_`;
/// - nothing else: the origin comment is the only wall-clock value, and no device or user data.
///
/// One event cannot be written: an emit of an envelope no payload in the file created (e.g. one
/// created before recording began). It is skipped and counted in ``skippedEvents``.
///
/// `@unchecked Sendable`: the sink, the line buffer and the bookkeeping are read and written only
/// under `lock`, so the app may read ``sink`` on another thread while a deduplicator records.
///
/// - Complexity: per event, O(*n*) in the route's and source's lengths, one dictionary lookup,
///   and one `write` to the sink.
public final class TraceRecorder<Sink: TraceSink>: TraceRecording, ActionRecording, @unchecked Sendable {
    // Unchecked exclusivity on the mutable state: every access holds `lock`, and the runtime's
    // per-access tracking cost more per event than writing the line.
    private let lock = NSLock()
    @exclusivity(unchecked) var _sink: Sink
    let routes: RouteRecording
    /// Added to every time given, in nanoseconds: the relaunch time, for a file resumed after a
    /// relaunch.
    let timeOffset: Int64
    @exclusivity(unchecked) var latest: Int64
    /// Where each line is built: `_TraceLine.capacity` bytes, allocated once.
    @exclusivity(unchecked) var lineBuffer = [UInt8](repeating: 0, count: _TraceLine.capacity)
    /// The envelope token of the first payload line of every envelope in the file.
    @exclusivity(unchecked) private var firstTokens: _EnvelopeTokens
    /// The number of the next `d` token.
    @exclusivity(unchecked) private var nextDelivery: Int
    @exclusivity(unchecked) private var _skippedEvents = 0
    /// Whether lines carry the `action` column: a recorder a ``NavigationRouter`` reports to.
    let recordsActions: Bool
    /// The number of the next action (`a1`, `a2`, …).
    @exclusivity(unchecked) private var nextAction = 1

    /// A recorder that starts a new trace: the comments and the header go to `sink` now.
    ///
    /// - Parameters:
    ///   - routes: verbatim route strings, or digest tokens that keep identifiers on the device.
    ///   - startedAt: the wall-clock time of the trace's time 0 (now), written as
    ///     `# origin_unix_ms=`, so that a later launch's relaunch line shows how long the app was
    ///     dead. It is the one wall-clock value in the file: whoever reads the trace can date its
    ///     events.
    ///   - recordsActions: write the 9-column form, whose `action` column and `action_start`,
    ///     `action_finish` and `action_cancel` lines hold what a ``NavigationRouter`` reports
    ///     (``NavigationRouter/attach(_:clock:)``); the 8-column form otherwise.
    public init(sink: Sink, routes: RouteRecording = .verbatim, startedAt: Date = Date(), recordsActions: Bool = false) {
        _sink = sink
        self.routes = routes
        timeOffset = 0
        latest = .min
        firstTokens = _EnvelopeTokens()
        nextDelivery = 1
        self.recordsActions = recordsActions
        let header = recordsActions ? TraceFormat.header(columns: TraceFormat.maximumColumnCount) : Self.header
        writeText(Self.leadingComment(routes: routes, originUnixMilliseconds: Self.unixMilliseconds(startedAt)) + header + "\n")
    }

    /// A recorder that continues a file an earlier launch wrote, after writing its relaunch line.
    init(sink: Sink, routes: RouteRecording, resuming tail: _TraceTail, relaunchAt relaunch: Timestamp) {
        _sink = sink
        self.routes = routes
        timeOffset = relaunch.nanoseconds
        latest = relaunch.nanoseconds
        firstTokens = tail.firstTokens
        nextDelivery = tail.lastDelivery + 1
        recordsActions = false
        writeBare(kind: "relaunch", at: .zero)
        _sink.flush()
    }

    deinit {
        _sink.flush()
    }

    /// The header every trace this recorder writes has.
    public static var header: String { TraceFormat.header(columns: TraceFormat.recorderColumnCount) }

    /// A copy of the sink, e.g. a ``TraceBuffer``'s bytes.
    public var sink: Sink {
        lock.lock()
        defer { lock.unlock() }
        return _sink
    }

    /// Calls `body` with the sink, under the recorder's lock, e.g. to flush or close a file.
    public func withSink<R>(_ body: (inout Sink) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&_sink)
    }

    /// Emits not written because no payload in the file created their envelope.
    public var skippedEvents: Int {
        lock.lock()
        defer { lock.unlock() }
        return _skippedEvents
    }

    /// - Complexity: O(*n*) in the route's and source's lengths.
    public func recordPayload(
        route: String, envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp, decision: RoutingDecision
    ) {
        lock.lock()
        defer { lock.unlock() }
        writePayload(envelope: envelope, pushID: pushID, source: source, at: time, decision: decision) { line in
            switch routes {
            case .verbatim where _TraceLine.isRepresentable(route):
                line.text(route)
            case .verbatim:
                line.routeToken(DeterministicHashing.fnv1a64(route.utf8))
            case .hashed(let salt):
                line.routeToken(DeterministicHashing.fnv1a64(route.utf8, seed: salt))
            }
        }
    }

    /// - Complexity: O(*n*) in the source's length.
    public func recordPayload(
        _ fingerprint: RouteFingerprint, envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp,
        decision: RoutingDecision
    ) {
        lock.lock()
        defer { lock.unlock() }
        writePayload(envelope: envelope, pushID: pushID, source: source, at: time, decision: decision) { line in
            switch routes {
            case .hashed(let salt) where salt != 0:
                line.routeToken(DeterministicHashing.mix64(fingerprint.rawValue ^ salt))
            case .verbatim, .hashed:
                line.routeToken(fingerprint.rawValue)
            }
        }
    }

    /// A payload line, under the lock; `route` writes its fingerprint column, the one field the
    /// two `recordPayload` overloads write differently.
    private func writePayload(
        envelope: EnvelopeID, pushID: String?, source: String, at time: Timestamp, decision: RoutingDecision,
        route: (inout _TraceLine) -> Void
    ) {
        let token = payloadToken(envelope, pushID: pushID)
        writeLine { line in
            begin(&line, at: time, kind: "payload")
            self.envelope(&line, token.token, of: envelope)
            route(&line)
            end(&line, source: source, pushID: pushID, envelope: envelope, reused: token.isReuse, decision: decision)
        }
    }

    /// - Complexity: O(*n*) in the source's length.
    public func recordEmit(envelope: EnvelopeID, source: String, at time: Timestamp, decision: RoutingDecision) {
        lock.lock()
        defer { lock.unlock() }
        guard let token = firstTokens.token(of: envelope) else {
            _skippedEvents += 1
            return
        }
        writeLine { line in
            begin(&line, at: time, kind: "emit")
            self.envelope(&line, token, of: envelope)
            end(&line, source: source, pushID: nil, envelope: envelope, reused: false, decision: decision)
        }
    }

    /// Writes `TIME,background,,,,,,` and flushes the sink: the app may be killed from now on
    /// without another callback.
    ///
    /// - Complexity: O(1), plus the sink's flush.
    public func recordBackground(at time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        writeBare(kind: "background", at: time)
        _sink.flush()
    }

    /// Writes `TIME,action_start,,KEY,,,,,aN`, the key as ``RouteRecording`` writes a route.
    ///
    /// - Complexity: O(*n*) in the key's length.
    public func recordActionTriggered(_ key: ActionKey, at time: Timestamp) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let action = nextAction
        nextAction += 1
        guard recordsActions else { return action }
        writeLine { line in
            begin(&line, at: time, kind: "action_start")
            line.byte(UInt8(ascii: ","))
            switch routes {
            case .verbatim where _TraceLine.isRepresentable(key.name):
                line.text(key.name)
            case .verbatim:
                line.routeToken(DeterministicHashing.fnv1a64(key.name.utf8))
            case .hashed(let salt):
                line.routeToken(DeterministicHashing.fnv1a64(key.name.utf8, seed: salt))
            }
            line.text(",,,,,")
            actionToken(&line, action)
        }
        return action
    }

    /// Writes `TIME,action_finish,,,,,,,aN`, or `action_cancel`.
    ///
    /// - Complexity: O(1).
    public func recordActionEnded(_ action: Int, cancelled: Bool, at time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        guard recordsActions else { return }
        writeLine { line in
            begin(&line, at: time, kind: cancelled ? "action_cancel" : "action_finish")
            line.text(",,,,,,")
            actionToken(&line, action)
        }
    }

    private func actionToken(_ line: inout _TraceLine, _ action: Int) {
        line.byte(UInt8(ascii: "a"))
        line.decimal(UInt64(action))
        line.byte(UInt8(ascii: "\n"))
    }

    /// The envelope token of a payload line, and the bookkeeping that keeps tokens unique.
    private func payloadToken(_ envelope: EnvelopeID, pushID: String?) -> _PayloadToken {
        if pushID == nil, firstTokens.insertIfAbsent(envelope, .uuid) {
            return _PayloadToken(token: .uuid, isReuse: false)
        }
        let token = _EnvelopeToken.delivery(nextDelivery)
        nextDelivery += 1
        if pushID != nil { firstTokens.insertIfAbsent(envelope, token) }
        return _PayloadToken(token: token, isReuse: pushID == nil)
    }

    static func unixMilliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        return milliseconds.magnitude < 9e18 ? Int64(milliseconds) : 0
    }

    static func leadingComment(routes: RouteRecording, originUnixMilliseconds origin: Int64) -> String {
        "\(TraceFormat.recorderCommentPrefix)\(routes.modeName))\n# \(TraceFormat.originKey)\(origin)\n"
    }
}

/// How a payload or emit line names its envelope.
enum _EnvelopeToken: Hashable {
    /// The envelope's own bits as a canonical UUID: the first payload given that `UUID`.
    case uuid
    /// `d` and the number: a delivery of a push id, or a `UUID` given again.
    case delivery(Int)
    /// Any other token, read from a resumed file.
    case verbatim(String)
}

struct _PayloadToken {
    var token: _EnvelopeToken
    /// A `UUID` an earlier payload used: its line carries the UUID as `push_id`.
    var isReuse: Bool
}

extension RouteRecording {
    /// The word the leading comment uses.
    var modeName: String { self == .verbatim ? "verbatim" : "hashed" }
}
