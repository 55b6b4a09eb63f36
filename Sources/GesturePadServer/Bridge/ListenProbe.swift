import GesturePadSystem
import Glibc

/// Checks, before libwebsockets is asked, that the server can listen where it was told: lws
/// 4.1 may keep a vhost whose bind failed and retry it later, so "listening" would be printed
/// with nothing listening. A probe socket is bound and closed again; its errno names the
/// reason in words a user can act on.
enum ListenProbe {
    /// Why a port cannot be bound: in words, and whether another program holds it.
    struct Problem: Sendable {
        var text: String
        var inUse: Bool
    }

    /// nil when `host` (an IP literal, or nil for every interface) and `port` can be bound,
    /// else why not.
    static func problem(host: String?, port: Int) -> Problem? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return Problem(text: "\(host ?? "*") is not an IP address (\(String(cString: gai_strerror(status))))", inUse: false)
        }
        defer { freeaddrinfo(first) }
        var problems: [Problem] = []
        var bound = 0
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            node = entry.pointee.ai_next
            let fd = socket(entry.pointee.ai_family, entry.pointee.ai_socktype, entry.pointee.ai_protocol)
            if fd < 0 {
                // An address family the kernel lacks (IPv6 off): not this server's problem.
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if entry.pointee.ai_family == AF_INET6 {
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            do {
                try SystemCall.retrying { bind(fd, entry.pointee.ai_addr, entry.pointee.ai_addrlen) }
                bound += 1
            } catch {
                problems.append(Problem(text: reason(error.errno, host: host, port: port), inUse: error.errno == EADDRINUSE))
            }
            close(fd)
        }
        if let problem = problems.first(where: \.inUse) ?? problems.first, host != nil || bound == 0 || problem.inUse {
            return problem
        }
        return bound > 0 ? nil : Problem(text: "no address to listen on", inUse: false)
    }

    private static func reason(_ code: Int32, host: String?, port: Int) -> String {
        switch code {
        case EADDRINUSE: "port \(port) is in use (another program listens there; pick another with --port)"
        case EADDRNOTAVAIL: "\(host ?? "*") is not an address of this machine"
        case EACCES: "port \(port) is privileged: use a port of 1024 or more, or run with CAP_NET_BIND_SERVICE"
        default: String(cString: strerror(code))
        }
    }
}
