import GestureProtocol
import Testing

/// The proof handshake's `auth` answer read by the protocol's scanner: what it takes, and what
/// it refuses (the judge then closes with 1008).
@Suite struct AuthMessageTests {
    func decode(_ text: String) -> AuthMessage? { AuthMessage.decode(Array(text.utf8)) }

    @Test func theTwoShapes() {
        #expect(
            decode(#" {"proof":"p","nonce":"n","with":"secret","type":"auth","extra":[1,{"a":2}]} "#)
                == AuthMessage(with: "secret", nonce: "n", proof: "p"))
        #expect(
            decode(#"{"type":"auth","with":"device","device":"d\u0031","nonce":"n","proof":"p","model":"Pixel 8"}"#)
                == AuthMessage(with: "device", device: "d1", nonce: "n", proof: "p", model: "Pixel 8"))
        #expect(
            decode(#"{"type":"auth","with":"secret","nonce":"n","kx":"k","proof":"p"}"#)
                == AuthMessage(with: "secret", nonce: "n", proof: "p", kx: "k"))
        #expect(decode(#"{"type":"auth","with":"x","nonce":"n","proof":"p","model":null,"device":null}"#)?.model == nil)
        #expect(decode(#"{"type":"auth","with":"a","with":"b","nonce":"n","proof":"p"}"#)?.with == "b")
    }

    /// A pairing's additive `kind` is read as a string (or null: absent); any other value
    /// makes it no `auth` message. What the string means is `ProofAnswer`'s to judge.
    @Test func theKindOfAPairing() {
        #expect(
            decode(#"{"type":"auth","with":"secret","nonce":"n","proof":"p","kind":"observer"}"#)
                == AuthMessage(with: "secret", nonce: "n", proof: "p", kind: "observer"))
        #expect(decode(#"{"type":"auth","with":"secret","nonce":"n","proof":"p","kind":null}"#)?.kind == nil)
        #expect(decode(#"{"type":"auth","with":"secret","nonce":"n","proof":"p"}"#)?.kind == nil)
        #expect(decode(#"{"type":"auth","with":"secret","nonce":"n","proof":"p","kind":"desk"}"#)?.kind == "desk")
        for value in ["1", "true", "[]", #"{"k":"observer"}"#] {
            #expect(decode(#"{"type":"auth","with":"secret","nonce":"n","proof":"p","kind":\#(value)}"#) == nil, "\(value)")
        }
    }

    @Test func whatIsNotOne() {
        for text in [
            "", "[]", "\"auth\"", #"{"type":"hello","with":"secret","nonce":"n","proof":"p"}"#,
            #"{"type":"auth","nonce":"n","proof":"p"}"#, #"{"type":"auth","with":"secret","nonce":1,"proof":"p"}"#,
            #"{"type":"auth","with":"secret","nonce":"n","proof":"p","model":7}"#,
            #"{"type":"auth","with":"secret","nonce":"n","proof":null}"#,
            #"{"type":"auth","with":"secret","nonce":"n","proof":"p"} {}"#, #"{"type":"auth","with":"secret","#,
        ] {
            #expect(decode(text) == nil, "\(text)")
        }
        for text in [#"{"type":"auth","with":"secret","nonce":"n","proof":"p","kx":1}"#] {
            #expect(decode(text) == nil, "\(text)")
        }
        var invalid = Array(#"{"type":"auth","with":"secret","nonce":"n","proof":"p","model":"x"}"#.utf8)
        invalid[invalid.count - 3] = 0xFF
        #expect(AuthMessage.decode(invalid) == nil)
    }
}
