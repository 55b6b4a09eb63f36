import GestureProtocol

/// What happened to a device, for the terminal line and the desktop notification.
public enum PairingEvent: Sendable, Hashable {
    /// A new device was paired (its key handed to its page).
    case paired(PairedDevice)
    /// An outside client paired again with the secret in the address (`?token=`): its
    /// earlier entry (the same `User-Agent`) was taken again, with a new key.
    case repaired(PairedDevice)
    /// A browser that paired before (the same `BrowserDigest`, the same kind) paired again
    /// while its entry was not connected: it took that entry over (its id and name) with a new
    /// key; its earlier key is forgotten.
    case replaced(PairedDevice)
    /// A paired device connected, with no other connection open.
    case connected(PairedDevice)
    /// A new device asks to pair and waits this many seconds for an answer; `from`: the
    /// address it connects from, when known (the computer's user is shown it with the name the
    /// device claims).
    case waiting(PairedDevice, seconds: Int, from: String?)
    /// A new device proved the pairing secret while pairing is closed: it waits this many
    /// seconds for pairing to open (or to be allowed by name).
    case waitingForPairing(PairedDevice, seconds: Int, from: String?)
    /// A waiting device was accepted.
    case accepted(PairedDevice)
    /// A waiting device was refused, with why (declined, not in time, its page went away).
    case declined(PairedDevice, reason: String)
    /// A device was forgotten.
    case forgotten(PairedDevice, by: ForgetCause)
}

/// Who forgot a device; says what its page is told.
public enum ForgetCause: Sendable, Hashable {
    /// `gesturepad devices forget`, the notification's "Forget", `serve --forget-devices`, or
    /// `devices.json` edited.
    case computer
    /// The page's "Unpair this phone" (`unpair`).
    case phone

    /// The close reason its connections get (code 4403).
    var closeReason: String {
        switch self {
        case .computer: "this phone was removed on the computer: scan the code again"
        case .phone: "this phone was unpaired: scan the code again to pair it"
        }
    }
}

/// What `PairingDesk` asks its shell to do, in order.
enum PairingAction: Sendable, Hashable {
    /// Connection `Int` (just opened) is this device's: its `welcome` carries the greeting.
    case greet(Int, DeviceGreeting)
    /// Connection `Int` (just opened) waits for the computer's user, or for pairing to open:
    /// tell its page which, read nothing of it yet.
    case hold(Int, DeviceGreeting, PairingWait)
    /// Waiting connection `Int` was accepted: it goes on, and its `welcome` carries the greeting.
    case admit(Int, DeviceGreeting)
    /// These connections' device was renamed (`gesturepad devices rename`): tell their pages.
    case rename([Int], DeviceGreeting)
    /// Close these connections with `code` at once.
    case close([Int], code: CloseCode, reason: String)
    /// Tell the computer's user (terminal line; a notification as `PairingSettings.notify` says).
    case announce(PairingEvent)
    /// Take back the notification about device `String` (it was answered, or is moot).
    case withdraw(deviceID: String)
}

/// The time of a pairing input: the server's monotonic clock (ms), for deadlines, and the wall
/// time as stored in `devices.json` (ISO 8601, UTC).
struct PairingTime: Sendable, Hashable {
    var now: Double
    var stamp: String
}

/// The id and key a new device gets (random: the shell makes them, tests choose them).
struct FreshDevice: Sendable, Hashable {
    var id: String
    var key: String
    /// Whether the key is handed to the page in `welcome.device.key` (a `?token=` pairing);
    /// false for a key both sides derived in the proof handshake, which is never sent.
    var told = true
    /// The public key of a device that proved itself with a key pair made on the phone (then
    /// `key` is not used): what pairing keeps of it.
    var publicKey: String? = nil

    /// What proves the new device from now on.
    var credential: DeviceCredential {
        publicKey.map(DeviceCredential.publicKey) ?? .key(key, told: told)
    }
}
