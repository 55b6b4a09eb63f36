import CLibWebSockets
import GesturePadSettings

/// The lws context and its one vhost as `ServerConfiguration` says: the port (plain, or TLS that
/// also reads plain HTTP to redirect it), the page's file mount, the `gesturepad` protocol with
/// its per-connection slot, and the keep-alive policy. The C structs live in the caller's
/// `CStorage`, which must outlive the context.
enum LWSVhost {
    /// Creates the context (its user pointer `user`, which the callbacks get back) and the
    /// vhost, and returns the context and the port bound; on a failure nothing is left.
    static func start(
        _ configuration: ServerConfiguration, user: UnsafeMutableRawPointer, storage: CStorage
    ) throws(ServerStartError) -> (context: OpaquePointer, port: Int) {
        if configuration.host.map(HostResolver.isIPLiteral) ?? true,
            let problem = ListenProbe.problem(host: configuration.host, port: configuration.port)
        {
            throw problem.inUse
                ? ServerStartError.portInUse(host: configuration.host, port: configuration.port, problem: problem.text)
                : ServerStartError.cannotListen(host: configuration.host, port: configuration.port, problem: problem.text)
        }
        var contextInfo = lws_context_creation_info()
        contextInfo.options = CLWS_OPTION_EXPLICIT_VHOSTS
        if configuration.tls != nil { contextInfo.options |= CLWS_OPTION_DO_SSL_GLOBAL_INIT }
        contextInfo.user = user
        guard let context = lws_create_context(&contextInfo) else { throw .noContext }

        var info = lws_context_creation_info()
        info.vhost_name = storage.string("gesturepad")
        info.port = Int32(configuration.port)
        if let host = configuration.host, !ServerConfiguration.isWildcard(host) {
            info.iface = storage.string(host)
            if !host.contains(":") { info.options |= CLWS_OPTION_DISABLE_IPV6 }
        } else if configuration.host == "0.0.0.0" {
            info.options |= CLWS_OPTION_DISABLE_IPV6
        }
        if let tls = configuration.tls {
            info.ssl_cert_filepath = storage.string(tls.certificatePath)
            info.ssl_private_key_filepath = storage.string(tls.keyPath)
            // HTTP/1.1 only: the server frames WebSocket messages itself (LWS_WRITE_RAW) and
            // writes whole HTTP/1.1 responses, neither of which may go through an h2 stream.
            info.alpn = storage.string("http/1.1")
            // Plain HTTP on the same port is read so that an old bookmark is redirected to HTTPS;
            // `filterHTTP` and `confirmUpgrade` answer it (`PlainRequestPolicy`): lws's own
            // redirect covers the file mount only and drops the path.
            info.options |= CLWS_OPTION_ALLOW_NON_SSL_ON_SSL_PORT | CLWS_OPTION_ALLOW_HTTP_ON_HTTPS_LISTENER
        }
        info.protocols = UnsafePointer(protocols(storage))
        info.mounts = UnsafePointer(mount(configuration, storage))
        info.retry_and_idle_policy = UnsafePointer(idlePolicy(configuration, storage))
        info.keepalive_timeout = 30
        WebSocketFraming.requireNoExtensions(contextInfo)
        WebSocketFraming.requireNoExtensions(info)
        guard let vhost = lws_create_vhost(context, &info) else {
            lws_context_destroy(context)
            throw .cannotListen(host: configuration.host, port: configuration.port, problem: nil)
        }
        let port = Int(lws_get_vhost_listen_port(vhost))
        guard port > 0 else {
            lws_context_destroy(context)
            throw .cannotListen(host: configuration.host, port: configuration.port, problem: "no port was bound")
        }
        return (context, port)
    }

    private static func protocols(_ storage: CStorage) -> UnsafeMutablePointer<lws_protocols> {
        // Two entries: ours, then the zeroed terminator (4.1.6 has no LWS_PROTOCOL_LIST_TERM).
        let protocols = storage.zeroed(lws_protocols.self, count: 2)
        protocols[0].name = storage.string("gesturepad")
        protocols[0].callback = gesturePadCallback
        protocols[0].per_session_data_size = MemoryLayout<gp_connection_slot>.size
        protocols[0].rx_buffer_size = 16_384
        return protocols
    }

    private static func mount(_ configuration: ServerConfiguration, _ storage: CStorage) -> UnsafeMutablePointer<lws_http_mount> {
        let mount = storage.zeroed(lws_http_mount.self)
        mount.pointee.mountpoint = storage.string("/")
        mount.pointee.mountpoint_len = 1
        mount.pointee.origin = storage.string(configuration.publicDirectory)
        mount.pointee.def = storage.string("index.html")
        mount.pointee.origin_protocol = UInt8(LWSMPRO_FILE.rawValue)
        mount.pointee.cache_max_age = 0
        mount.pointee.cache_reusable = 1
        mount.pointee.cache_revalidate = 1
        mount.pointee.extra_mimetypes = UnsafePointer(mimeTypes(storage))
        return mount
    }

    private static func mimeTypes(_ storage: CStorage) -> UnsafeMutablePointer<lws_protocol_vhost_options>? {
        let types = StaticFilePolicy.contentTypes
        let nodes = storage.zeroed(lws_protocol_vhost_options.self, count: types.count)
        for (index, (suffix, type)) in types.enumerated() {
            nodes[index].name = storage.string(suffix)
            nodes[index].value = storage.string(type)
            nodes[index].next = index + 1 < types.count ? UnsafePointer(nodes + index + 1) : nil
        }
        return nodes
    }

    private static func idlePolicy(_ configuration: ServerConfiguration, _ storage: CStorage) -> UnsafeMutablePointer<
        lws_retry_bo_t
    > {
        let policy = storage.zeroed(lws_retry_bo_t.self)
        policy.pointee.secs_since_valid_ping = UInt16(clamping: configuration.idlePingSeconds)
        policy.pointee.secs_since_valid_hangup = UInt16(clamping: configuration.idleHangupSeconds)
        return policy
    }
}
