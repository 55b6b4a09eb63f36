import GestureEngine

/// A queue of encoded frames in one contiguous byte buffer.
public struct FrameBuffer: Sendable {
    /// The kind of an encoded frame: a `reply` goes to its own connection only; a `gesture`
    /// and a `command` notice go to it and to every observer.
    public enum Kind: Sendable { case reply, gesture, command }
    public private(set) var bytes: [UInt8] = []
    public private(set) var frames: [(kind: Kind, range: Range<Int>)] = []
    public init() {}
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
    }

    /// Appends one frame of `kind` whose bytes `write` appends to the buffer.
    public mutating func append(_ kind: Kind, _ write: (inout [UInt8]) -> Void) {
        let start = bytes.count
        write(&bytes)
        frames.append((kind: kind, range: start..<bytes.count))
    }

    /// Appends an already encoded frame.
    public mutating func append(_ kind: Kind, bytes frame: [UInt8]) {
        append(kind) { $0.append(contentsOf: frame) }
    }

    /// Appends a `.gesture` frame for `event` (see `MessageEncoder.appendGesture`).
    public mutating func appendGesture(_ event: GestureEvent, sessionLiteral: [UInt8]) {
        append(.gesture) { MessageEncoder.appendGesture(event, sessionLiteral: sessionLiteral, to: &$0) }
    }

    /// Appends an `error` reply.
    public mutating func appendError(_ error: ProtocolError, index: Int? = nil) {
        append(.reply) { MessageEncoder.appendError(error, index: index, to: &$0) }
    }

    /// The bytes of frame `index`.
    public func frameBytes(_ index: Int) -> ArraySlice<UInt8> {
        bytes[frames[index].range]
    }
}
