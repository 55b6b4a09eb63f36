import GesturePadSettings

/// What `serve` gives the server for pairing (docs/server.md "Pairing"): the settings, where
/// the devices are kept, who shows desktop notifications, and who publishes which devices are
/// connected (`server.json`, for `gesturepad devices`).
public struct PairingSetup: Sendable {
    public var settings: PairingSettings
    public var store: DeviceStore
    /// Shows the desktop notifications; nil: terminal lines only.
    public var notifier: (any PairingNotifier)?
    /// Called on the server's state thread when the devices connected now, or the count of
    /// `devices.json` reloads taken in, change (`server.json`, for `gesturepad devices`).
    public var presence: (@Sendable (DevicePresence) -> Void)?
    /// Forget every paired device as the server starts (`--forget-devices`).
    public var forgetAll: Bool

    public init(
        settings: PairingSettings, store: DeviceStore, notifier: (any PairingNotifier)? = nil,
        presence: (@Sendable (DevicePresence) -> Void)? = nil, forgetAll: Bool = false
    ) {
        self.settings = settings
        self.store = store
        self.notifier = notifier
        self.presence = presence
        self.forgetAll = forgetAll
    }
}

/// What `server.json` says of the paired devices while the server runs.
public struct DevicePresence: Sendable, Hashable {
    /// The ids of the paired devices connected now, sorted.
    public var connected: [String]
    /// How many SIGUSR1 reloads of `devices.json` the server has acted on.
    public var reloads: Int

    public init(connected: [String], reloads: Int) {
        self.connected = connected
        self.reloads = reloads
    }
}
