/// Test support: splits server-to-client WebSocket bytes (unmasked) into text payloads,
/// checking every header — an independent reader of what the hub hands to lws.
enum WebSocketFrames {
    static func textPayloads(_ bytes: ArraySlice<UInt8>) -> [String] {
        var payloads: [String] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard bytes[i] == 0x81, i + 1 < bytes.endIndex else { return payloads + ["<bad header>"] }
            var length = Int(bytes[i + 1] & 0x7F)
            guard bytes[i + 1] & 0x80 == 0 else { return payloads + ["<masked>"] }
            i += 2
            if length == 126 {
                length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                i += 2
            } else if length == 127 {
                length = (0..<8).reduce(0) { $0 << 8 | Int(bytes[i + $1]) }
                i += 8
            }
            guard i + length <= bytes.endIndex else { return payloads + ["<truncated>"] }
            payloads.append(String(decoding: bytes[i..<(i + length)], as: UTF8.self))
            i += length
        }
        return payloads
    }
}
