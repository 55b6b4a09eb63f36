import GestureControl
import GesturePadSettings
import GestureProtocol

/// Everything the shell reports to `ConnectionHub.handle(_:)`: what happens to a connection
/// (the transport names connections by integer id), what pairing decided about one, and what
/// happens to the server as a whole. There is no other way in.
///
/// Time is an input: every case that can lead to a timer carries `now` on the server's
/// monotonic clock (ms); the hub answers with deadlines on the same clock.
enum HubInput {
    // MARK: The transport, about connection `id`

    /// lws established WebSocket connection `id` (a name the transport has not used before)
    /// at `now`, and can serve it (its timer can be armed).
    case opened(Int, now: Double)
    /// A chunk of a data frame arrived: `bytes` (a transport buffer the hub copies from, only
    /// when the chunk is accepted), whether it ends its message, whether the frame is binary.
    case received(Int, ArraySlice<UInt8>, isFinal: Bool, isBinary: Bool, now: Double)
    /// The connection can be written to (the writable callback the hub asked for).
    case writable(Int, now: Double)
    /// The connection's timer fired at `now`. `inputPending`: bytes from the peer already wait
    /// in its socket (a loop that was held up runs its due timers before reading them).
    case wakeup(Int, now: Double, inputPending: Bool)
    /// lws has a Close frame prepared or sent for this connection — ours, or its own for a
    /// protocol error it found in the input (1002 for reserved bits, …).
    case closeFrameSeen(Int)
    /// The peer sent a Close, which lws answers.
    case peerClosed(Int)
    /// lws let go of the connection at `now`.
    case closed(Int, now: Double)

    // MARK: Pairing (`PairingDesk`'s actions), about connection `id`

    /// The connection (just opened) is this device's: its `welcome` will say so.
    case greet(Int, DeviceGreeting)
    /// The connection (just opened) waits for the computer's user: its page is told, and what
    /// it sends is kept unread (no `hello` deadline runs meanwhile).
    case hold(Int, DeviceGreeting, PairingWait, now: Double)
    /// The waiting connection was accepted: its session starts (the `hello` deadline from
    /// `now`) and reads what was kept; its `welcome` carries the device (with the key).
    case admit(Int, DeviceGreeting, now: Double)
    /// The connection closes at once with `code`, without its queue (its device is not, or no
    /// longer, paired).
    case refuse(Int, code: CloseCode, reason: String)
    /// The connection's device was renamed on the computer: its page is told at once (the
    /// `device` notice), and observers hear its session's new name.
    case rename(Int, DeviceGreeting, now: Double)

    // MARK: The proof handshake (docs/protocol.md "Proof handshake"), about connection `id`

    /// The connection (just opened) must prove what it holds: the `challenge` with the
    /// server's nonce goes out, and its first message is handed to the shell to judge. Without
    /// a nonce (authentication is off) the challenge says there is nothing to prove. `https`:
    /// it came in plain HTTP to a port that speaks TLS (docs/protocol.md "Moving to HTTPS").
    case challenge(Int, nonce: String?, exchange: String? = nil, identity: String? = nil, https: Bool = false, now: Double)
    /// Its proof was accepted: the `authenticated` answer goes out, with the server's own
    /// proof, and `text`, `key` and `button` must come sealed with `seal` from now on.
    case proven(Int, serverProof: String, seal: SealedChannel, now: Double)
    /// What the connection sent while its proof was judged is read (after pairing greeted it;
    /// a connection held for the computer's user keeps it until it is admitted).
    case release(Int, now: Double)
    /// Its proof was accepted, but it came in plain HTTP to a port that speaks TLS now: the
    /// `move` message goes out sealed (with `ticket`, a paired device's), then the connection
    /// closes with 4426 after it (docs/protocol.md "Moving to HTTPS").
    case move(Int, ticket: String?, now: Double)

    // MARK: The server as a whole

    /// The control backend became active or inactive (the desktop allowed or ended the portal
    /// session): open touchpads drive the computer from now on, or stop.
    case controlStatusChanged(ControlBackendStatus, now: Double)
    /// The backend learnt the desktop's keyboard layout, or a new one (the portal follows the
    /// Wayland keymap): every session checks `text` and character `key`s against this table
    /// from now on — the table the backend types with. Nothing is sent to the pages.
    case desktopLayoutChanged(DesktopLayout.Table)
    /// The computer's media players changed (docs/protocol.md "Media"): every page that said
    /// hello hears it.
    case mediaChanged(MediaSnapshot, now: Double)
    /// The configuration file was read again (SIGHUP): sessions that open from now on get its
    /// thresholds and control settings (open ones keep theirs: the page was told them in its
    /// `welcome`, and may have changed them), and the sinks its hook rules.
    case reconfigure(ReloadedSettings)
    /// Shutdown: every connection closes with 1001 after its queued frames (the transport
    /// refuses new upgrades from now on).
    case shutdown
}
