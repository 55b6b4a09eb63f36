import GestureEngine

/// Writes a gesture's own fields (GESTURES.md) straight from its `GestureDetail`, each value
/// after the next pre-encoded key (`GestureFragments.FieldKeys.bytes`, `,"name":` after
/// `,"name":` in `GestureEvent.forEachField` order). The hot path of `MessageEncoder`: no
/// `GestureFieldValue` is built. Tests hold its output equal to the `forEachField` path's.
enum OwnFieldWriter {
    /// Writes every own field of `detail`; `false` when a name did not fit (the caller
    /// starts over on the slow path).
    @inline(__always)
    static func write(_ detail: GestureDetail, keys: Span<UInt8>, into out: inout OutputSpan<UInt8>) -> Bool {
        var cursor = 0
        switch detail {
        case .pointer(let id, let pointerType):
            integer(id, keys, &cursor, &out)
            return name(pointerType.name, keys, &cursor, &out)
        case .release(let id, let inside, let duration):
            integer(id, keys, &cursor, &out)
            key(keys, &cursor, &out)
            JSONSpanWriter.writeBool(inside, into: &out)
            number(duration, keys, &cursor, &out)
        case .end(let reason, let duration):
            guard name(reason.name, keys, &cursor, &out) else { return false }
            number(duration, keys, &cursor, &out)
        case .count(let count):
            integer(count, keys, &cursor, &out)
        case .none:
            break
        case .duration(let duration):
            number(duration, keys, &cursor, &out)
        case .motion(let m):
            number(m.startX, keys, &cursor, &out)
            number(m.startY, keys, &cursor, &out)
            number(m.dx, keys, &cursor, &out)
            number(m.dy, keys, &cursor, &out)
            number(m.ddx, keys, &cursor, &out)
            number(m.ddy, keys, &cursor, &out)
            number(m.vx, keys, &cursor, &out)
            number(m.vy, keys, &cursor, &out)
            number(m.predictedX, keys, &cursor, &out)
            number(m.predictedY, keys, &cursor, &out)
            number(m.predictedDx, keys, &cursor, &out)
            number(m.predictedDy, keys, &cursor, &out)
        case .scroll(let s):
            number(s.dx, keys, &cursor, &out)
            number(s.dy, keys, &cursor, &out)
            number(s.ddx, keys, &cursor, &out)
            number(s.ddy, keys, &cursor, &out)
            number(s.vx, keys, &cursor, &out)
            number(s.vy, keys, &cursor, &out)
        case .swipe(let s):
            guard name(s.direction.name, keys, &cursor, &out) else { return false }
            number(s.distance, keys, &cursor, &out)
            number(s.velocity, keys, &cursor, &out)
            number(s.duration, keys, &cursor, &out)
            guard name(s.ends.name, keys, &cursor, &out) else { return false }
        case .pinch(let scale, let velocity):
            number(scale, keys, &cursor, &out)
            number(velocity, keys, &cursor, &out)
        case .rotate(let angle, let velocity):
            number(angle, keys, &cursor, &out)
            number(velocity, keys, &cursor, &out)
        }
        return true
    }

    /// Copies the next key, up to and including its `:` (no key name holds one).
    @inline(__always)
    private static func key(_ keys: Span<UInt8>, _ cursor: inout Int, _ out: inout OutputSpan<UInt8>) {
        while true {
            let byte = keys[cursor]
            cursor &+= 1
            out.append(byte)
            if byte == UInt8(ascii: ":") { return }
        }
    }

    @inline(__always)
    private static func number(
        _ value: Double, _ keys: Span<UInt8>, _ cursor: inout Int, _ out: inout OutputSpan<UInt8>
    ) {
        key(keys, &cursor, &out)
        JSONSpanWriter.writeNumber(value, into: &out)
    }

    @inline(__always)
    private static func integer(
        _ value: Int, _ keys: Span<UInt8>, _ cursor: inout Int, _ out: inout OutputSpan<UInt8>
    ) {
        key(keys, &cursor, &out)
        JSONSpanWriter.writeInteger(value, into: &out)
    }

    /// A name (an enum's protocol name), if it is short enough for the room reserved for it
    /// (`GestureFragments.FieldKeys.bound`, which has room for each name of the shape).
    @inline(__always)
    private static func name(
        _ text: String, _ keys: Span<UInt8>, _ cursor: inout Int, _ out: inout OutputSpan<UInt8>
    ) -> Bool {
        let bytes = text.utf8.span
        guard bytes.count <= GestureFragments.maxFastNameBytes else { return false }
        key(keys, &cursor, &out)
        JSONSpanWriter.writeString(bytes, into: &out)
        return true
    }
}
