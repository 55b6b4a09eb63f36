import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol

/// What `ConnectionHub` asks its shell to do, in order: the transport (connections named by
/// integer id; the transport maps ids to its own handles), the sinks, the control backend, the
/// input recorder and pairing. The hub never calls any of them: it returns these, and the shell
/// (the libwebsockets bridge with its `HubOutlets`, or a test) carries them out.
///
/// Payloads that carry what a session produced (`write`, `deliver`, `note`, `perform`) are
/// views of the hub's reused buffers, not copies: carried out before the next input, they
/// cost no allocation.
enum HubAction: Equatable {
    // MARK: The transport

    /// Ask for a writable callback on the connection: frames are queued, or its Close is due.
    case requestWritable(Int)
    /// Write these messages now, in order, each as one text frame (the transport frames them).
    case write(Int, OutboundBatch)
    /// Stop reading from the connection (back-pressure: its send queue is full).
    case pauseReading(Int)
    /// Read from the connection again.
    case resumeReading(Int)
    /// Arm the connection's timer at `deadline` (server clock, ms), replacing an armed one.
    case scheduleWakeup(Int, deadline: Double)
    /// Cancel the connection's timer.
    case cancelWakeup(Int)
    /// The hub started closing the connection: drop it if the close stalls (a peer that never
    /// reads never becomes writable, so its Close could wait forever).
    case limitClosingTime(Int)
    /// Send a Close frame with this code and reason; nothing is written after it.
    case close(Int, code: CloseCode, reason: String)
    /// The connection was failed (RFC 6455 §7.1.7) with a Close that is not the hub's: close
    /// the TCP connection right after that Close instead of waiting for an answer.
    case hangUp(Int)

    // MARK: The sinks (terminal log, JSON log, hooks)

    /// Hand these gesture events of session `session` to every sink, in order.
    case deliver(session: String, events: ArraySlice<GestureEvent>)
    /// Hand these notes of session `session` (commands, releases) to every sink, in order.
    case note(session: String, notes: ArraySlice<SessionNote>)
    /// Touchpad session `session` opened (`true`: its `hello`) or closed.
    case announceSession(String, open: Bool)
    /// Hand these media player events to every sink, in order.
    case deliverMedia([MediaEvent])
    /// Match every event from now on against these hook rules (a reload).
    case replaceHooks([HookRule])

    // MARK: The control backend

    /// Carry out these host actions of a touchpad, in order (the backend queues them).
    case perform(ArraySlice<HostAction>)
    /// A touchpad arrived while control is off: ask the backend to drive the computer again.
    case requestControl

    // MARK: The input recorder (`--record`)

    /// Touchpad session `session` began with `frame`, the frame that held its `hello`.
    case beginRecording(session: String, frame: [UInt8])
    /// A later frame of the session, exactly as received.
    case record(session: String, frame: [UInt8])
    /// The session's connection closed.
    case endRecording(session: String)

    // MARK: Pairing

    /// The page of the connection sent `unpair`: forget its device.
    case unpairDevice(Int)
    /// The connection's answer to its challenge, to judge (docs/protocol.md "Proof handshake").
    case judgeProof(Int, [UInt8])

    // MARK: Media

    /// A page's command for the computer's media players (docs/protocol.md "Media").
    case media(MediaCommand)
}
