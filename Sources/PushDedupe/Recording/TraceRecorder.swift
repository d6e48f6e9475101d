import class Foundation.NSLock

/// Records what an app's deduplicator sees as a trace file that `dedupe-bench replay` reads
/// as it is (format: `Guides/TraceFormat.md`).
///
/// ```swift
/// #if DEBUG
/// let recorder = TraceRecorder(sink: TraceBuffer(), routes: .hashed())
/// let dedupe = MainActorDeduplicator.recommended(recorder: recorder)
/// #endif
/// ```
///
/// What it writes:
/// - a comment naming the recorder and the route mode, then the header line;
/// - per payload, `TIME,payload,ENVELOPE,ROUTE,SOURCE,`; per emit, `TIME,emit,ENVELOPE,,SOURCE,`;
///   per relaunch, `TIME,relaunch,,,,`. `truth` is left empty: the app cannot know the right
///   answer, so replay runs every strategy on the trace without scoring it;
/// - `TIME` is milliseconds with every nanosecond digit; a time earlier than the latest one
///   written is written as the latest, the rule every strategy applies, so the file stays valid
///   and replays to the same decisions;
/// - `ENVELOPE` is the lower-case canonical UUID; `ROUTE` as ``RouteRecording`` says. A route the
///   format cannot hold as it is (empty, over 128 characters, a comma or a control character) is
///   written as its digest token instead; a payload given as a `RouteFingerprint` is written as
///   its own token, `fp:` and 16 hex digits. `SOURCE` is cut to 128 characters, with commas and
///   control characters replaced by `_`;
/// - nothing else: no wall-clock time, no device or user data.
///
/// Events the format cannot express are skipped and counted in ``skippedEvents``: a payload
/// whose envelope an earlier payload already used, and an emit of an envelope no recorded
/// payload created (e.g. one created before recording began).
///
/// `@unchecked Sendable`: the sink, the line buffer and the bookkeeping are read and written only
/// under `lock`, so the app may read ``sink`` on another thread while a deduplicator records.
public final class TraceRecorder<Sink: TraceSink>: TraceRecording, @unchecked Sendable {
    private let lock = NSLock()
    var _sink: Sink
    private let routes: RouteRecording
    /// Added to every time given, for a file continued from an earlier launch.
    let timeOffset: Timestamp
    var latest: Int64
    var line: [UInt8] = []
    private var payloadEnvelopes: Set<EnvelopeID> = []
    private var _skippedEvents = 0

    /// A recorder that starts a new trace: a comment and the header go to `sink` now.
    ///
    /// - Parameters:
    ///   - routes: verbatim route strings, or digest tokens that keep identifiers on the device.
    public init(sink: Sink, routes: RouteRecording = .verbatim) {
        _sink = sink
        self.routes = routes
        timeOffset = .zero
        latest = .min
        line.reserveCapacity(256)
        let mode = routes == .verbatim ? "verbatim" : "hashed"
        writeText("# Recorded by PushDedupe TraceRecorder (routes \(mode))\n" + Self.header + "\n")
    }

    /// A recorder that continues a trace an earlier launch of the app recorded into the same
    /// file: it writes no header, writes `relaunch` at `previousLatestTime` (that launch's
    /// ``latestTime``, which the app saved), and offsets this launch's times by it, so times keep
    /// increasing although the new process's clock starts again at 0.
    ///
    /// `createdEnvelopes` are envelopes earlier launches' payloads created that this launch may
    /// emit again: the pending routes the app persisted. An emit of any other envelope created
    /// before the relaunch is skipped, as the format requires a creating payload in the file.
    public init(
        continuing sink: Sink, after previousLatestTime: Timestamp, createdEnvelopes: some Sequence<EnvelopeID> = [],
        routes: RouteRecording = .verbatim
    ) {
        _sink = sink
        self.routes = routes
        timeOffset = previousLatestTime
        latest = previousLatestTime.nanoseconds
        payloadEnvelopes = Set(createdEnvelopes)
        line.reserveCapacity(256)
        lock.lock()
        defer { lock.unlock() }
        writeRelaunch(at: .zero)
    }

    /// The header every trace starts with.
    public static var header: String { "time_ms,kind,envelope,fingerprint,source,truth" }

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

    /// The latest time written, offset included: save it to continue the file after a relaunch.
    public var latestTime: Timestamp {
        lock.lock()
        defer { lock.unlock() }
        return Timestamp(nanoseconds: max(latest, timeOffset.nanoseconds))
    }

    /// Events not written because the format cannot express them (see the type's summary).
    public var skippedEvents: Int {
        lock.lock()
        defer { lock.unlock() }
        return _skippedEvents
    }

    /// - Complexity: O(*n*) in the route's and source's lengths.
    public func recordPayload(route: some StringProtocol, envelope: EnvelopeID, source: String, at time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        guard payloadEnvelopes.insert(envelope).inserted else {
            _skippedEvents += 1
            return
        }
        beginLine(at: time, kind: "payload,", envelope: envelope)
        switch routes {
        case .verbatim where Self.isRepresentable(route):
            line.append(contentsOf: route.utf8)
        case .verbatim:
            appendToken(DeterministicHashing.fnv1a64(route.utf8))
        case .hashed(let salt):
            appendToken(DeterministicHashing.fnv1a64(route.utf8, seed: salt))
        }
        endLine(source: source)
    }

    /// - Complexity: O(*n*) in the source's length.
    public func recordPayload(_ fingerprint: RouteFingerprint, envelope: EnvelopeID, source: String, at time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        guard payloadEnvelopes.insert(envelope).inserted else {
            _skippedEvents += 1
            return
        }
        beginLine(at: time, kind: "payload,", envelope: envelope)
        switch routes {
        case .hashed(let salt) where salt != 0:
            appendToken(DeterministicHashing.mix64(fingerprint.rawValue ^ salt))
        case .verbatim, .hashed:
            appendToken(fingerprint.rawValue)
        }
        endLine(source: source)
    }

    /// - Complexity: O(*n*) in the source's length.
    public func recordEmit(envelope: EnvelopeID, source: String, at time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        guard payloadEnvelopes.contains(envelope) else {
            _skippedEvents += 1
            return
        }
        beginLine(at: time, kind: "emit,", envelope: envelope)
        endLine(source: source)
    }

    /// Writes `TIME,relaunch,,,,`.
    ///
    /// - Complexity: O(1).
    public func recordRelaunch(at time: Timestamp) {
        lock.lock()
        defer { lock.unlock() }
        writeRelaunch(at: time)
    }
}
