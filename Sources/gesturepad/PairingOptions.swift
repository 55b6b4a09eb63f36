import ArgumentParser
import GesturePadConfig
import GesturePadHost
import GesturePadServer
import GesturePadSettings
import Logging

extension PairingSettings.Notify: ExpressibleByArgument {}

/// How `serve` pairs phones (docs/server.md "Pairing"): whether a new phone waits for the
/// computer's user, for how long, which events make a desktop notification, and forgetting
/// every paired phone at start.
struct PairingOptions: ParsableArguments {
    @Flag(
        name: .customLong("confirm-pairing"),
        help: """
            A new phone waits until you accept it (in the notification, or gesturepad devices allow NAME); \
            refused or not accepted in time, it is refused.
            """)
    var confirm = false

    @Option(
        name: .customLong("pairing-timeout"),
        help: ArgumentHelp(
            "Seconds a new phone waits with --confirm-pairing. (default: \(Int(PairingSettings.defaultTimeoutSeconds)))",
            valueName: "seconds"))
    var timeout: Double?

    @Option(
        name: .customLong("notify"),
        help: ArgumentHelp(
            "Desktop notifications: pairing (a phone paired or asks to), connections (also when a paired phone connects), or off. (default: pairing)",
            valueName: "events"))
    var notify: PairingSettings.Notify?

    @Flag(
        name: .customLong("forget-devices"),
        help: "Forget every paired phone first (with --new-token: start pairing afresh).")
    var forgetDevices = false

    func validate() throws {
        let bound = PairingSettings.timeoutSecondsBound
        if let timeout, !bound.contains(timeout) {
            throw ValidationError("--pairing-timeout must be \(bound.text) seconds, not \(timeout)")
        }
    }

    /// These flags, for `ConfigFile.pairingSettings` to put over the file's.
    var flags: PairingFlags {
        PairingFlags(confirm: confirm, timeoutSeconds: timeout, notify: notify)
    }

    /// What the server needs to pair devices with `settings`, and the desktop notifier in it
    /// (nil with `--notify off`), which is the caller's to stop.
    func setup(
        _ settings: PairingSettings, state: StateDirectory, record: ServerRecordKeeper, logger: Logger
    ) -> (setup: PairingSetup, notifier: DesktopPairingNotifier?) {
        var notifier: DesktopPairingNotifier?
        if settings.notify != .off {
            notifier = (try? DesktopNotifier(logger: logger)).map(DesktopPairingNotifier.init)
            if notifier == nil { logger.warning("cannot start desktop notifications: pairing is told on this terminal only") }
        }
        let setup = PairingSetup(
            settings: settings, store: DeviceStore(directory: state), notifier: notifier,
            presence: { record.update($0) }, forgetAll: forgetDevices)
        return (setup, notifier)
    }
}
