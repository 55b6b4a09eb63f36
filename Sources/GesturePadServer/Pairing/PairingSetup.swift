import GesturePadSettings

/// What `serve` gives the server for pairing (docs/server.md "Pairing"): the settings, where
/// the devices are kept, who shows desktop notifications, and who publishes which devices are
/// connected (`server.json`, for `gesturepad devices`).
public struct PairingSetup: Sendable {
    public var settings: PairingSettings
    public var store: DeviceStore
    /// Shows the desktop notifications; nil: terminal lines only.
    public var notifier: (any PairingNotifier)?
    /// Called on the service thread with the ids of the devices connected now, when they change.
    public var presence: (@Sendable ([String]) -> Void)?
    /// Forget every paired device as the server starts (`--forget-devices`).
    public var forgetAll: Bool

    public init(
        settings: PairingSettings, store: DeviceStore, notifier: (any PairingNotifier)? = nil,
        presence: (@Sendable ([String]) -> Void)? = nil, forgetAll: Bool = false
    ) {
        self.settings = settings
        self.store = store
        self.notifier = notifier
        self.presence = presence
        self.forgetAll = forgetAll
    }
}
