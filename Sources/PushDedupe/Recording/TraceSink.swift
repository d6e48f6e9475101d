/// Where a ``TraceRecorder`` writes its bytes: a buffer, a file, a socket.
///
/// The recorder hands over one complete line (or the header) per call, already UTF-8 encoded.
/// A file sink belongs to the app, which chooses where the file lives; `Guides/TraceFormat.md`
/// shows one built on `FileHandle`.
public protocol TraceSink: Sendable {
    /// Appends `bytes`.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
}

/// A sink that keeps the trace in memory.
///
/// ```swift
/// let recorder = TraceRecorder(sink: TraceBuffer())
/// // … events …
/// let text = String(decoding: recorder.sink.bytes, as: UTF8.self)
/// ```
public struct TraceBuffer: TraceSink, Hashable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// - Complexity: O(*n*) in `bytes.count`, amortized.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }
}
