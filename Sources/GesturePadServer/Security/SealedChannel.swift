import Crypto
import FoundationEssentials
import GestureProtocol

/// One connection's sealing (docs/protocol.md "Sealed messages"): ChaCha20-Poly1305 (RFC 8439)
/// with a key per direction (`WireProof.sessionKeys`) and a counter nonce per direction — four
/// zero bytes, then the message's number (from 0) as 8 bytes little-endian. The number is not
/// sent: each side counts, so a sealed message replayed, reordered, dropped or moved to another
/// connection does not open, nor one altered or forged.
///
/// On the wire a sealed message is `{"type":"sealed","box":"…"}`, its own frame; `box` is the
/// base64url (no padding) of the ciphertext followed by the 16-byte tag, the plaintext the
/// JSON text of one message or batch, padded with spaces to a size class (`paddedLength`) so a
/// frame's length tells a listener no more than its class — not how long a word typed was.
public struct SealedChannel {
    private let toServer: SymmetricKey
    private let toPage: SymmetricKey
    /// The number of the next message each way.
    public private(set) var received: UInt64 = 0
    public private(set) var sent: UInt64 = 0
    /// The last box read, its storage kept for the next (every frame of the connection).
    private var box: [UInt8] = []

    /// The frame's start and end around the box.
    static let prefix = Array(#"{"type":"sealed","box":""#.utf8)
    static let suffix = Array(#""}"#.utf8)

    public init(toServer: SymmetricKey, toPage: SymmetricKey) {
        self.toServer = toServer
        self.toPage = toPage
    }

    /// Whether `frame` is a sealed message (exactly the shape above; anything else is read as
    /// a plain message).
    public static func isSealed(_ frame: [UInt8]) -> Bool {
        frame.count >= prefix.count + suffix.count && frame.starts(with: prefix) && frame.suffix(2).elementsEqual(suffix)
    }

    /// The nonce of message `number`.
    public static func nonce(_ number: UInt64) -> [UInt8] {
        [0, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: number >> (8 * UInt64($0))) }
    }

    /// Opens the next sealed frame from the page: its plaintext, or nil when it does not open
    /// (the connection must then close: `CloseCode.sealBroken`). The count moves on only for
    /// a message that opened.
    public mutating func open(frame: [UInt8]) -> [UInt8]? {
        guard Self.isSealed(frame) else { return nil }
        box.removeAll(keepingCapacity: true)
        let digits = frame[Self.prefix.count..<(frame.count - Self.suffix.count)]
        guard Base64URL.append(decoding: digits, to: &box), box.count >= 16,
            let nonce = try? ChaChaPoly.Nonce(data: Self.nonce(received)),
            let sealed = try? ChaChaPoly.SealedBox(
                nonce: nonce, ciphertext: box[..<(box.count - 16)], tag: box[(box.count - 16)...]),
            let plain = try? ChaChaPoly.open(sealed, using: toServer)
        else { return nil }
        received += 1
        return Array(plain)
    }

    /// The length a plaintext of `count` bytes is padded to: 64, 128, 256, 512 or 1,024 bytes,
    /// then the next multiple of 1,024 (the page pads the same way, `js/proof.js`).
    public static func paddedLength(_ count: Int) -> Int {
        var size = 64
        while size < count && size < 1_024 { size *= 2 }
        return count <= size ? size : (count + 1_023) / 1_024 * 1_024
    }

    /// Seals `message` (the JSON text of one message) for the page, padded, as a whole frame.
    public mutating func seal(_ message: [UInt8]) -> [UInt8] {
        defer { sent += 1 }
        var padded = message
        padded.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Self.paddedLength(message.count) - message.count))
        guard let nonce = try? ChaChaPoly.Nonce(data: Self.nonce(sent)),
            let box = try? ChaChaPoly.seal(padded, using: toPage, nonce: nonce)
        else { return [] }
        return Self.prefix + Array(Base64URL.encode(Array(box.ciphertext) + Array(box.tag)).utf8) + Self.suffix
    }
}
