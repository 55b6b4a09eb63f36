import CLibWebSockets

/// The hub's requests, carried out with lws calls on the service thread.
extension WebServer: HubTransport {
    func requestWritable(_ id: Int) {
        guard !destroying, let wsi = handles[id] else { return }
        lws_callback_on_writable(wsi)
    }

    func setReceiving(_ id: Int, _ enabled: Bool) {
        guard !destroying, let wsi = handles[id] else { return }
        lws_rx_flow_control(wsi, enabled ? 1 : 0)
    }

    func schedule(_ id: Int, at time: Double?) {
        guard !destroying, let context, let wsi = handles[id],
            let slot = lws_wsi_user(wsi)?.assumingMemoryBound(to: gp_connection_slot.self)
        else { return }
        guard let time else {
            lws_sul_cancel(gp_slot_timer(slot))
            return
        }
        let delay = max(0, time - MonotonicClock.nowMilliseconds())
        let microseconds = lws_usec_t((delay * 1_000).rounded(.up))
        lws_sul_schedule(context, 0, gp_slot_timer(slot), gesturePadTimerFired, microseconds)
    }

    func closeStarted(_ id: Int) {
        guard !destroying, let wsi = handles[id] else { return }
        // A peer that never reads never becomes writable: drop it if the close stalls.
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, 5)
    }
}
