/// Decodes one text frame — a message object or an array of them (a batch) — into typed
/// messages (PROTOCOL.md "Page → server", "Bad input").
///
/// A frame that is not JSON yields one `bad_json` error and no messages. In a batch, each bad
/// element gets its own error and the others are decoded in order. The frame must be valid
/// UTF-8 (checked by the caller: invalid UTF-8 closes the connection with 1007).
public enum FrameDecoder {
    /// The shape of a decoded frame.
    public enum Shape: Sendable, Hashable {
        /// One message object.
        case single
        /// An array of messages (possibly empty).
        case batch
        /// Not JSON, or JSON that is not a message object / array: one error, no messages.
        case invalid(ProtocolError)
    }

    /// Decodes `s` into `messages` (cleared first, capacity kept).
    public static func decode(_ s: Span<UInt8>, into messages: inout [DecodedMessage]) -> Shape {
        messages.removeAll(keepingCapacity: true)
        var scanner = JSONScanner()
        do throws(JSONSyntaxError) {
            scanner.skipWhitespace(s)
            let shape: Shape
            switch scanner.peek(s) {
            case UInt8(ascii: "{"):
                messages.append(try message(&scanner, s, depth: 1))
                shape = .single
            case UInt8(ascii: "["):
                try batch(&scanner, s, into: &messages)
                shape = .batch
            case nil:
                throw JSONSyntaxError(offset: scanner.index, problem: "empty frame, expected a value")
            default:
                _ = try scanner.scanValue(s, depth: 0)
                shape = .invalid(ProtocolError(.badJSON, "a frame must be a message object or an array of them"))
            }
            scanner.skipWhitespace(s)
            guard scanner.index == s.count else {
                throw JSONSyntaxError(offset: scanner.index, problem: "unexpected data after the JSON value")
            }
            if case .invalid = shape { messages.removeAll(keepingCapacity: true) }
            return shape
        } catch {
            messages.removeAll(keepingCapacity: true)
            return .invalid(ProtocolError(.badJSON, "not JSON: \(error.description)"))
        }
    }

    private static func batch(_ scanner: inout JSONScanner, _ s: Span<UInt8>, into messages: inout [DecodedMessage])
        throws(JSONSyntaxError)
    {
        try scanner.expect(UInt8(ascii: "["), s, "expected '['")
        scanner.skipWhitespace(s)
        if scanner.peek(s) == UInt8(ascii: "]") {
            scanner.index += 1
            return
        }
        while true {
            scanner.skipWhitespace(s)
            if scanner.peek(s) == UInt8(ascii: "{") {
                messages.append(try message(&scanner, s, depth: 2))
            } else {
                _ = try scanner.scanValue(s, depth: 1)
                let error = ProtocolError(.badJSON, "batch element \(messages.count) is not a message object")
                messages.append(DecodedMessage(type: nil, result: .failure(error)))
            }
            scanner.skipWhitespace(s)
            if scanner.peek(s) == UInt8(ascii: ",") {
                scanner.index += 1
                continue
            }
            try scanner.expect(UInt8(ascii: "]"), s, "expected ',' or ']'")
            return
        }
    }

    private static func message(_ scanner: inout JSONScanner, _ s: Span<UInt8>, depth: Int) throws(JSONSyntaxError)
        -> DecodedMessage
    {
        let fields = try MessageFields.scan(&scanner, s, depth: depth)
        switch MessageValidator.messageType(fields, in: s) {
        case .failure(let error):
            return DecodedMessage(type: nil, result: .failure(error))
        case .success(let type):
            do throws(ProtocolError) {
                let message = try MessageValidator(fields: fields, type: type).message(in: s)
                return DecodedMessage(type: type, result: .success(message))
            } catch {
                return DecodedMessage(type: type, result: .failure(error))
            }
        }
    }
}
