import CLibWebSocketsClient

/// The client protocol callback (a global function, so Swift makes it `@convention(c)`):
/// recovers the `LWSClient` from the context and the connection index from the wsi's opaque
/// user data (index + 1, stored as a pointer bit pattern), and hands the event over.
func loadGenCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let pointer = lws_context_user(context) else { return 0 }
    let client = Unmanaged<LWSClient>.fromOpaque(pointer).takeUnretainedValue()
    let index = Int(bitPattern: lws_get_opaque_user_data(wsi)) - 1
    guard index >= 0, index < client.wsis.count else { return 0 }
    switch reason {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        client.wsis[index] = wsi
        client.run.established(index, now: LoadRun.now())
    case LWS_CALLBACK_CLIENT_RECEIVE:
        let first = lws_is_first_fragment(wsi) != 0
        let final = lws_is_final_fragment(wsi) != 0
        client.run.scratch.removeAll(keepingCapacity: true)
        if let input, length > 0 {
            client.run.scratch.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        client.run.received(index, first: first, final: final, now: LoadRun.now())
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        let status = client.write(index, wsi: wsi)
        client.applyRequests()
        return status
    case LWS_CALLBACK_TIMER:
        client.run.timer(index)
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        var code: Int? = nil
        if let input, length >= 2 {
            let bytes = UnsafeRawBufferPointer(start: input, count: 2)
            code = Int(bytes[0]) << 8 | Int(bytes[1])
        }
        client.run.peerClosing(index, code: code, now: LoadRun.now())
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        client.wsis[index] = nil
        client.run.failed(index, now: LoadRun.now())
    case LWS_CALLBACK_CLIENT_CLOSED:
        client.wsis[index] = nil
        client.run.closed(index, now: LoadRun.now())
    default:
        return 0
    }
    client.applyRequests()
    return 0
}

/// The wake timer's callback. lws runs ripe timers at the start of a service pass and then
/// polls until the next one, so the pass would sleep on past the deadline: cancelling the
/// service (a write to lws's own event pipe) ends the pass at once, and `LWSClient.serve`
/// ticks the run.
func loadGenWake(_ timer: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let timer, let wake = gp_wake_from_sul(timer), let context = wake.pointee.context else { return }
    lws_cancel_service(context)
}
