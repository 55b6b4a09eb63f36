/// The server's messages of the proof handshake (docs/protocol.md "Proof handshake").
extension MessageEncoder {
    /// `{"type":"challenge","protocol":1,"nonce":…}`: the page's next message is its proof.
    /// Without a nonce, `{"type":"challenge","protocol":1,"auth":false}`: nothing to prove.
    /// `https` (additive, docs/protocol.md "Moving to HTTPS"): the connection came in plain
    /// HTTP to a port that speaks TLS; a page with nothing to prove goes to the https address (a
    /// hint only: it carries no secret, and a page that holds one believes only the sealed `move`).
    /// `exchange` (additive, docs/protocol.md "Key exchange"): the server's ephemeral X25519
    /// public key for this connection, base64url. `identity` (additive, docs/protocol.md "Device
    /// key pairs"): the server's static X25519 public key, base64url.
    public static func appendChallenge(
        nonce: String?, exchange: String? = nil, identity: String? = nil, https: Bool, to out: inout [UInt8]
    ) {
        JSONWriter.appendASCII("{\"type\":\"challenge\",\"protocol\":1", to: &out)
        if let nonce {
            JSONWriter.appendASCII(",\"nonce\":", to: &out)
            JSONWriter.appendString(nonce, to: &out)
            if let exchange {
                JSONWriter.appendASCII(",\"kx\":", to: &out)
                JSONWriter.appendString(exchange, to: &out)
            }
            if let identity {
                JSONWriter.appendASCII(",\"sk\":", to: &out)
                JSONWriter.appendString(identity, to: &out)
            }
        } else {
            JSONWriter.appendASCII(",\"auth\":false", to: &out)
        }
        if https { JSONWriter.appendASCII(",\"https\":true", to: &out) }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"authenticated","proof":…}`: the server's half of the proof.
    public static func appendAuthenticated(serverProof: String, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"authenticated\",\"proof\":", to: &out)
        JSONWriter.appendString(serverProof, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
