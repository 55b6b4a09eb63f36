#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGPIPE, ignored for the whole process: a write to a pipe whose reader has gone (a hook
/// that exited, a terminal log piped into `head`, a socket the peer closed) must fail with
/// EPIPE, not end the server. A process-wide disposition, so the program sets it once, first
/// thing (`serve`); libraries do not change it behind its back. Test processes that write to
/// such pipes call it too.
public enum BrokenPipes {
    public static func ignore() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
