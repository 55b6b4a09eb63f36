/// The complete HTTP/1.1 response that refuses a WebSocket upgrade. lws's own
/// `lws_return_http_status` answers an upgrade request with an `HTTP/1.0` status line, which
/// strict clients reject as "not a valid response"; this one is plain HTTP/1.1.
public enum HTTPRefusal {
    /// Status line, headers and a short text body for `status`, closing the connection.
    public static func response(status: Int, reason: String) -> [UInt8] {
        let body = "\(status) \(phrase(for: status)): \(reason)\n"
        var head = "HTTP/1.1 \(status) \(phrase(for: status))\r\n"
        head += "Content-Type: text/plain; charset=utf-8\r\n"
        head += "Content-Length: \(body.utf8.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        if status == 401 { head += "WWW-Authenticate: Token realm=\"gesturepad\"\r\n" }
        if status == 503 { head += "Retry-After: 5\r\n" }
        if status == 429 { head += "Retry-After: 60\r\n" }
        head += "Connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// The reason phrase of the statuses the server uses.
    public static func phrase(for status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
    }
}

/// A complete `200 OK` response with a body (the trust page, the CA certificate).
enum HTTPResponse {
    static func ok(contentType: String, body: [UInt8]) -> [UInt8] {
        var head = "HTTP/1.1 200 OK\r\n"
        head += "Content-Type: \(contentType)\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        head += "X-Content-Type-Options: nosniff\r\n"
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}

/// An HTTP refusal's status and reason (`HTTPRefusal.response` writes it).
struct HTTPRefusalReason: Error, Equatable {
    var status: Int
    var reason: String

    init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }
}
