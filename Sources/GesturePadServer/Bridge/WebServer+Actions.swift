import CLibWebSockets
import GesturePadSystem

/// The hub's actions, carried out on the service thread: the transport's with lws calls, the
/// sinks', the backend's and the recorder's by `HubOutlets`, pairing's by the pairing service.
/// The bridge only carries them out: it never reads the hub's state.
extension WebServer {
    /// Hands `input` to the hub (through its `HubInbox`) and carries out the answer — then the
    /// answers of the inputs raised meanwhile (pairing's close after `unpairDevice`), each batch
    /// whole before the next. Returns what the lws callback of connection `current` must
    /// return: -1 once its Close is set (lws then sends it) or a write failed, else 0.
    @discardableResult
    func submit(_ input: HubInput, for current: Int? = nil) -> Int32 {
        var result: Int32 = 0
        inbox.submit(input) { actions in result = carryOut(actions, for: current, after: result) }
        return result
    }

    /// Carries out `actions` in order; `result` is where the callback of `current` stood
    /// before them (-1: nothing more is done to it). Returns where it stands after.
    private func carryOut(_ actions: [HubAction], for current: Int?, after result: Int32) -> Int32 {
        var result = result
        for action in actions {
            switch action {
            case .requestWritable(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_callback_on_writable(wsi)
            case .write(let id, let batch):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                if !connections.write(batch, to: wsi), id == current { result = -1 }
            case .pauseReading(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_rx_flow_control(wsi, 0)
            case .resumeReading(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_rx_flow_control(wsi, 1)
            case .scheduleWakeup(let id, let deadline):
                guard let context, let slot = connections.slot(of: id) else { continue }
                let delay = max(0, deadline - MonotonicClock.nowMilliseconds())
                let microseconds = lws_usec_t((delay * 1_000).rounded(.up))
                lws_sul_schedule(context, 0, gp_slot_timer(slot), gesturePadTimerFired, microseconds)
            case .cancelWakeup(let id):
                guard let slot = connections.slot(of: id) else { continue }
                lws_sul_cancel(gp_slot_timer(slot))
            case .limitClosingTime(let id):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, 5)
            case .close(let id, let code, let reason):
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                LWSConnections.setCloseReason(wsi, code: code, reason: reason)
                if id == current { result = -1 }
            case .unpairDevice(let id):
                unpair(id)  // pairing's decisions reach the hub after this batch (`HubInbox`)
            case .judgeProof(let id, let answer):
                judgeProof(id, answer: answer)
            case .deliver, .deliverMedia, .note, .announceSession, .replaceHooks, .perform, .requestControl, .beginRecording,
                .record,
                .endRecording, .media:
                outlets.carryOut(action)
            case .hangUp(let id):
                // lws would wait 5 s for an answering Close it may never parse (it drops the rest
                // of the read that held the bad frame) or that will never come (the peer's own
                // Close was the one refused).
                guard let wsi = connections.handle(id, unlessFailed: result, current) else { continue }
                lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, CLWS_TO_KILL_ASYNC)
            }
        }
        return result
    }

}
