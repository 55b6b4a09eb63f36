/// The observer notice `{"type":"session","session":S,"state":"open"|"closed"}` of
/// PROTOCOL.md "Server → page", encoded once per touchpad arrival or departure.
enum SessionNotice {
    /// The encoded notice for session `session`.
    static func encode(session: String, open: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + session.utf8.count)
        bytes.append(contentsOf: #"{"type":"session","session":""#.utf8)
        appendEscaped(session, to: &bytes)
        bytes.append(contentsOf: (open ? #"","state":"open"}"# : #"","state":"closed"}"#).utf8)
        return bytes
    }

    /// Appends `text` as the inside of a JSON string.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
    }
}
