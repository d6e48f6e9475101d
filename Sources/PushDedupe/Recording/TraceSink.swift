/// Where a ``TraceRecorder`` writes its bytes: a buffer, a file, a socket.
///
/// The recorder hands over one complete line (or the leading comment and header) per call,
/// already UTF-8 encoded, and calls `flush()` at every `background` line, the last moment an
/// app can count on before it is killed. ``TraceFileSink`` appends to a file.
public protocol TraceSink: Sendable {
    /// Appends `bytes`.
    mutating func write(_ bytes: UnsafeRawBufferPointer)
    /// Makes everything written so far durable where the sink keeps it; by default nothing.
    mutating func flush()
}

extension TraceSink {
    public mutating func flush() {}
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
