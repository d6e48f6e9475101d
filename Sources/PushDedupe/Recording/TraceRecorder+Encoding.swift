extension TraceRecorder {
    /// Builds one line in the recorder's buffer with `body` and hands it to the sink.
    func writeLine(_ body: (inout _TraceLine) -> Void) {
        lineBuffer.withUnsafeMutableBufferPointer { buffer in
            var line = _TraceLine(buffer)
            body(&line)
            _sink.write(line.bytes)
        }
    }

    /// `TIME,KIND,`: `time` plus the offset, clamped to the latest time written, so times never
    /// decrease.
    func begin(_ line: inout _TraceLine, at time: Timestamp, kind: StaticString) {
        let (shifted, overflow) = time.nanoseconds.addingReportingOverflow(timeOffset)
        latest = max(latest, overflow ? (timeOffset < 0 ? .min : .max) : shifted)
        line.time(nanoseconds: latest)
        line.byte(UInt8(ascii: ","))
        line.text(kind)
        line.byte(UInt8(ascii: ","))
    }

    /// The envelope token, then a comma.
    func envelope(_ line: inout _TraceLine, _ token: _EnvelopeToken, of envelope: EnvelopeID) {
        switch token {
        case .uuid: line.uuid(envelope)
        case .delivery(let number):
            line.byte(UInt8(ascii: "d"))
            line.decimal(UInt64(number))
        case .verbatim(let text): line.text(text)
        }
        line.byte(UInt8(ascii: ","))
    }

    /// `,SOURCE,,PUSH_ID,SUPPRESSED` (empty truth) and the newline. `PUSH_ID` is `pushID` when
    /// the format holds it, the canonical UUID of `envelope` for any other push id and for a
    /// `UUID` given again (`reused`), else empty.
    func end(
        _ line: inout _TraceLine, source: String, pushID: String?, envelope: EnvelopeID, reused: Bool, decision: RoutingDecision
    ) {
        line.byte(UInt8(ascii: ","))
        line.label(source)
        line.byte(UInt8(ascii: ","))
        line.byte(UInt8(ascii: ","))
        if let pushID, TraceFormat.isToken(pushID.utf8) {
            line.text(pushID)
        } else if pushID != nil || reused {
            line.uuid(envelope)
        }
        line.byte(UInt8(ascii: ","))
        switch decision {
        case .navigated: break
        case .suppressedByWindow: line.text("window")
        case .suppressedByConsumedSet: line.text("consumed-set")
        }
        if recordsActions { line.byte(UInt8(ascii: ",")) }
        line.byte(UInt8(ascii: "\n"))
    }

    /// Writes `TIME,KIND,,,,,,`: a line with only a time.
    func writeBare(kind: StaticString, at time: Timestamp) {
        writeLine { line in
            begin(&line, at: time, kind: kind)
            line.text(recordsActions ? ",,,,,,\n" : ",,,,,\n")
        }
    }

    /// Writes text that is not an event (the comments and the header).
    func writeText(_ text: String) {
        var text = text
        text.withUTF8 { _sink.write(UnsafeRawBufferPointer($0)) }
    }
}
