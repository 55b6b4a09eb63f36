import Testing

@testable import GesturePadServer

@Suite struct WireFormatTests {
    /// Session notices are the exact PROTOCOL.md objects, with the id escaped.
    @Test func sessionNotices() {
        #expect(
            String(decoding: SessionNotice.encode(session: "3", open: true), as: UTF8.self)
                == #"{"type":"session","session":"3","state":"open"}"#)
        #expect(
            String(decoding: SessionNotice.encode(session: "a\"b", open: false), as: UTF8.self)
                == #"{"type":"session","session":"a\"b","state":"closed"}"#)
    }

    /// Refusals are complete HTTP/1.1 responses with a matching Content-Length.
    @Test func httpRefusal() throws {
        let text = String(decoding: HTTPRefusal.response(status: 403, reason: "wrong access token"), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1)
        let body = try #require(parts.last)
        #expect(text.contains("Content-Length: \(body.utf8.count)\r\n"))
        #expect(text.contains("Connection: close"))
        #expect(HTTPRefusal.response(status: 401, reason: "x").count > 0)
        #expect(String(decoding: HTTPRefusal.response(status: 401, reason: "x"), as: UTF8.self).contains("WWW-Authenticate"))
    }

    /// The mount serves folders and known types only, never hidden paths.
    @Test func staticFilePolicy() {
        for path in ["/", "/index.html", "/js/pad.js", "/style.css", "/manifest.webmanifest", "/icon.PNG", "/sub/"] {
            #expect(StaticFilePolicy.isServable(path), "\(path)")
        }
        for path in ["/ws", "/notes.xyz", "/.env", "/.git/config.json", "/a/.hidden/x.js", "/README", "x.html", "/a%2e.js"] {
            #expect(!StaticFilePolicy.isServable(path), "\(path)")
        }
    }
}
