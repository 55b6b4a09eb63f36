import CLibWebSockets

/// The one protocol callback of the vhost (a global function, so Swift makes it
/// `@convention(c)`): recovers the `WebServer` from the context and hands the event over.
/// Everything it does not handle goes to `lws_callback_http_dummy` (the file mount).
func gesturePadCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let server = WebServer.from(wsi: wsi) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    let slot = user?.assumingMemoryBound(to: gp_connection_slot.self)
    switch reason {
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
        return server.filterHTTP(wsi, input: input, length: length)
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return server.confirmUpgrade(wsi)
    case LWS_CALLBACK_ESTABLISHED:
        return server.established(wsi, slot: slot)
    case LWS_CALLBACK_RECEIVE:
        return server.received(wsi, slot: slot, input: input, length: length)
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return server.writable(wsi, slot: slot)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        return server.peerClosed(wsi, slot: slot, input: input, length: length)
    case LWS_CALLBACK_CLOSED:
        server.closed(slot: slot)
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}

/// A connection's timer fired: its slot (the timer is the slot's first member) names the
/// connection and its lws handle.
func gesturePadTimerFired(_ timer: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let timer, let slot = gp_slot_from_sul(timer), let wsi = slot.pointee.wsi,
        let server = WebServer.from(wsi: wsi)
    else { return }
    server.timerFired(slot: slot)
}

/// The shutdown grace timer: only wakes the service loop, which checks its deadline.
func gesturePadWake(_ timer: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {}

extension WebServer {
    /// The server whose context `wsi` belongs to.
    static func from(wsi: OpaquePointer) -> WebServer? {
        guard let context = lws_get_context(wsi), let user = lws_context_user(context) else { return nil }
        return Unmanaged<WebServer>.fromOpaque(user).takeUnretainedValue()
    }
}
