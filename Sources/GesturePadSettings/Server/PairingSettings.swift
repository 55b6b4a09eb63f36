import GestureControl

/// How `serve` pairs new devices and tells the computer's user (its flags, and the
/// configuration file's `server.pairing:`; docs/server.md "Pairing").
public struct PairingSettings: Sendable, Hashable {
    /// Which pairing events become a desktop notification (every one is a terminal line).
    public enum Notify: String, Sendable, Hashable, CaseIterable {
        /// None: terminal lines only.
        case off
        /// A device paired, or asks to (`--confirm-pairing`). The default.
        case pairing
        /// That, and every time a paired device connects (when it had no connection open).
        case connections
    }

    /// The default time a new device waits for the computer's user (`--pairing-timeout`).
    public static let defaultTimeoutSeconds = 60.0
    /// The seconds `--pairing-timeout` and `server.pairing.timeout` take: up to a day.
    public static let timeoutSecondsBound = NumberBound.above(0, atMost: 86_400)

    /// How long pairing stays open after the code is shown (the server's start, `gesturepad
    /// pair`), when the computer's user does not confirm each device: 5 minutes.
    public static let defaultWindowSeconds = 300.0

    /// How many new devices one opening of pairing pairs before it closes by itself: enough for
    /// a household's phones at once, few enough that a leaked link cannot fill the device list
    /// (32) while pairing is open; the desktop page or `gesturepad pair` opens it again.
    public static let defaultDevicesPerWindow = 4

    /// A new device waits until the computer's user accepts it (`--confirm-pairing`).
    public var confirm: Bool
    /// How long the pairing secret pairs after the code is shown, in ms (docs/server.md
    /// "Pairing is a moment"); with `confirm` it pairs whenever the user accepts.
    public var windowMilliseconds = defaultWindowSeconds * 1_000
    /// How many new devices one opening of pairing pairs (`defaultDevicesPerWindow`); with
    /// `confirm` each is accepted by the user and none is counted.
    public var devicesPerWindow = defaultDevicesPerWindow
    /// How long it waits before it is refused, in ms.
    public var timeoutMilliseconds: Double
    /// How long a new device that proved the secret while pairing was closed waits for pairing
    /// to open before it is refused (4412), in ms: 10 minutes, time to walk to the computer.
    public var closedWaitMilliseconds = 600_000.0
    public var notify: Notify
    /// Whether pairing opens as the server starts: yes when someone started it and sees the
    /// banner's code; no when the service manager started it (a login, a restart), where no one
    /// does — `gesturepad pair` or the desktop page open it then (issue 40).
    public var openAtStart = true

    /// `timeoutMilliseconds` in seconds (the flag's and the configuration file's unit).
    public var timeoutSeconds: Double {
        get { timeoutMilliseconds / 1_000 }
        set { timeoutMilliseconds = newValue * 1_000 }
    }

    public init(confirm: Bool = false, timeoutMilliseconds: Double = defaultTimeoutSeconds * 1_000, notify: Notify = .pairing) {
        self.confirm = confirm
        self.timeoutMilliseconds = timeoutMilliseconds
        self.notify = notify
    }
}
