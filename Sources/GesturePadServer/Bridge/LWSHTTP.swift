import CLibWebSockets
import GesturePadSettings

/// The plain HTTP answers the server writes itself, through lws (not its file mount): a whole
/// response written at once, what a TLS port answers a request that came in plain HTTP, and
/// the local CA's `/ca.crt` and `/trust`.
enum LWSHTTP {
    /// Writes a complete HTTP/1.1 response and ends the request (1: lws closes after the
    /// write; -1: the write failed).
    static func writeWhole(_ wsi: OpaquePointer, _ response: [UInt8]) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: Int(CLWS_PRE))
        buffer.append(contentsOf: response)
        let length = response.count
        let written = buffer.withUnsafeMutableBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return -1 }
            return lws_write(
                wsi, base.advanced(by: Int(CLWS_PRE)).assumingMemoryBound(to: UInt8.self), length, LWS_WRITE_HTTP_FINAL)
        }
        return written < 0 ? -1 : 1
    }

    /// What a TLS port answers a request that came in plain HTTP (`PlainRequestPolicy`); `nil`
    /// on a TLS connection or a plain server. `port`: the one bound.
    static func plainAnswer(
        _ wsi: OpaquePointer, path: String, isUpgrade: Bool, configuration: ServerConfiguration, port: Int
    ) -> PlainRequestPolicy.Answer? {
        guard configuration.tls != nil, lws_is_ssl(wsi) == 0 else { return nil }
        return PlainRequestPolicy.answer(
            path: path, arguments: LWSRequest.queryArguments(wsi), host: LWSRequest.header(wsi, WSI_TOKEN_HOST),
            fallbackHost: fallbackAuthority(configuration, port: port), isUpgrade: isUpgrade,
            proves: configuration.token != nil)
    }

    /// `/ca.crt` and `/trust` (with `--tls`): the local CA certificate and how to trust it.
    static func trustResponse(for path: String, tls: TLSConfiguration?) -> [UInt8]? {
        guard let tls else { return nil }
        switch path {
        case "/ca.crt":
            guard let authority = tls.authority else { return HTTPRefusal.response(status: 404, reason: "no local CA") }
            return HTTPResponse.ok(contentType: "application/x-x509-ca-cert", body: Array(authority.caPEM.utf8))
        case "/trust", "/trust/":
            let page = TrustPage.html(fingerprint: tls.authority?.fingerprint)
            return HTTPResponse.ok(contentType: "text/html; charset=utf-8", body: Array(page.utf8))
        default:
            return nil
        }
    }

    /// `host:port` of the server's own address for a `Location` when the request's `Host` is unusable.
    private static func fallbackAuthority(_ configuration: ServerConfiguration, port: Int) -> String {
        let host = configuration.host.flatMap { ServerConfiguration.isWildcard($0) ? nil : $0 } ?? "localhost"
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
