import GestureEngine

/// A wall-clock instant that a log line carries as `"time":"…"` after the `gesture` message's
/// fields (`MessageEncoder.appendGesture(_:session:time:to:)`): the sinks' `WallTime`.
public protocol GestureLogTime {
    /// Appends the instant as the inside of a JSON string (no quotes), e.g. `2026-11-22T05:48:44.123Z`.
    func appendISO8601(into out: inout [UInt8])
}

extension MessageEncoder {
    /// `{"type":"gesture","session":…,"gesture":…,"phase":…,"t":…,"x":…,"y":…,"pointers":…, own fields}`:
    /// what the page receives. `sessionLiteral` is the session id pre-encoded (`sessionLiteral(_:)`).
    public static func appendGesture(_ event: GestureEvent, sessionLiteral: [UInt8], to out: inout [UInt8]) {
        appendGestureFields(event, session: sessionLiteral.span, closing: true, to: &out)
    }

    /// The same message as a log line (the JSON log, hooks' stdin): the fields above, then
    /// `"time":"…"`, the wall-clock time the server saw the event, when `time` is given.
    public static func appendGesture(
        _ event: GestureEvent, session: String, time: (some GestureLogTime)?, to out: inout [UInt8]
    ) {
        let literal = sessionLiteral(session)
        guard let time else {
            appendGestureFields(event, session: literal.span, closing: true, to: &out)
            return
        }
        appendGestureFields(event, session: literal.span, closing: false, to: &out)
        out.append(contentsOf: GestureFragments.timeKey)
        time.appendISO8601(into: &out)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: "}"))
    }

    /// The message, with its closing brace when `closing`, written in one run of reserved
    /// capacity: keys, gesture and phase names pre-encoded (`GestureFragments`), numbers
    /// written in place, the own fields straight from the detail (`OwnFieldWriter`).
    private static func appendGestureFields(
        _ event: GestureEvent, session: Span<UInt8>, closing: Bool, to out: inout [UInt8]
    ) {
        let fragments = GestureFragments.shared
        let headBytes = fragments.heads[event.gesture.ordinal &* 4 &+ event.phase.ordinal]
        let keys = fragments.keys[event.detail.shape]
        let head = headBytes.span
        let common = GestureFragments.commonBytes + session.count + head.count
        let start = out.count
        var fits = true
        out.append(addingCapacity: common + keys.bound + 1) { span in
            writeCommonFields(event, session: session, head: head, into: &span)
            fits = OwnFieldWriter.write(event.detail, keys: keys.bytes.span, into: &span)
            if fits, closing { span.append(UInt8(ascii: "}")) }
        }
        guard !fits else { return }
        // A name longer than the room reserved for it (none of the engine's names is): again,
        // the own fields one by one through `forEachField`, each with its exact room.
        out.removeSubrange(start...)
        out.append(addingCapacity: common) { writeCommonFields(event, session: session, head: head, into: &$0) }
        appendOwnFieldsSlowly(event, keys: keys, to: &out)
        if closing { out.append(UInt8(ascii: "}")) }
    }

    /// The own fields through `GestureEvent.forEachField`, one reserved run each: the general
    /// path (tests compare `OwnFieldWriter` with it).
    static func appendOwnFieldsSlowly(_ event: GestureEvent, keys: GestureFragments.FieldKeys, to out: inout [UInt8]) {
        var index = 0
        event.forEachField { _, value in
            let key = keys.names[index]
            index += 1
            out.append(contentsOf: key)
            switch value {
            case .number(let n): JSONWriter.appendNumber(n, to: &out)
            case .integer(let i): JSONWriter.appendInteger(i, to: &out)
            case .bool(let b): JSONWriter.appendBool(b, to: &out)
            case .name(let s): JSONWriter.appendString(s, to: &out)
            }
        }
    }

    /// `{"type":"gesture","session":…,"gesture":…,"phase":…,"t":…,"x":…,"y":…,"pointers":…`
    /// (`head` is the pre-encoded `,"gesture":…,"t":`).
    @inline(__always)
    private static func writeCommonFields(
        _ event: GestureEvent, session: Span<UInt8>, head: Span<UInt8>, into span: inout OutputSpan<UInt8>
    ) {
        let open = GestureFragments.open
        let x = GestureFragments.xKey
        let y = GestureFragments.yKey
        let pointers = GestureFragments.pointersKey
        JSONSpanWriter.writeBytes(open.span, into: &span)
        JSONSpanWriter.writeBytes(session, into: &span)
        JSONSpanWriter.writeBytes(head, into: &span)
        JSONSpanWriter.writeNumber(event.t, into: &span)
        JSONSpanWriter.writeBytes(x.span, into: &span)
        JSONSpanWriter.writeNumber(event.x, into: &span)
        JSONSpanWriter.writeBytes(y.span, into: &span)
        JSONSpanWriter.writeNumber(event.y, into: &span)
        JSONSpanWriter.writeBytes(pointers.span, into: &span)
        JSONSpanWriter.writeInteger(event.pointers, into: &span)
    }
}
