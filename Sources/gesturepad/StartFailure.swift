import GesturePadServer

/// What `serve` says when its server cannot start. A port held by another program is the most
/// common case, and the other program is most often GesturePad itself (the systemd unit, a
/// second terminal): when the state directory's `server.json` names a running GesturePad on
/// that port, the message says so and how to reach or stop it (issue 42).
enum StartFailure {
    static func message(_ error: ServerStartError, port: Int, state: StateDirectory) -> String {
        guard error.portInUse,
            case .running(let record) = ServerRecord.status(in: state, isRunning: ProcessProbe.isGesturePad),
            record.port == port
        else { return error.description }
        return "GesturePad already serves on port \(port) (pid \(record.pid), started \(record.started)): "
            + "gesturepad url prints its address; stop it first (systemctl --user stop gesturepad, "
            + "or Ctrl-C where it runs), or pick another port with --port"
    }
}
