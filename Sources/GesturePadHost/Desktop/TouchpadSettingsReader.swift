import FoundationEssentials
import GestureControl
import GesturePadSystem

/// Reads the desktop's touchpad settings for the virtual "GesturePad touchpad"
/// (`TouchpadSettingsSource`): runs `gsettings` or `swaymsg`, or reads `kcminputrc`. Blocks for
/// as long as that takes (at most 2 s a program): the server calls it on a worker thread.
public struct TouchpadSettingsReader: Sendable {
    let source: TouchpadSettingsSource

    /// The reader for the session in `environment`; nil when its desktop keeps no settings
    /// GesturePad can read (X11 without GNOME or KDE, other Wayland compositors).
    public init?(environment: [String: String]) {
        guard let source = TouchpadSettingsSource.of(environment: environment) else { return nil }
        self.source = source
    }

    /// What reads the settings of the session in `environment`, for the server's watch; nil
    /// when its desktop keeps none GesturePad can read.
    public static func reading(environment: [String: String]) -> (@Sendable () -> DesktopTouchpadSettings?)? {
        guard let reader = TouchpadSettingsReader(environment: environment) else { return nil }
        return { reader.read() }
    }

    /// The settings now; nil when the desktop did not answer.
    public func read() -> DesktopTouchpadSettings? {
        let device = TouchpadExecutor.deviceName
        switch source {
        case .gnome:
            let arguments = ["list-recursively", "org.gnome.desktop.peripherals.touchpad"]
            return ProgramOutput.read("gsettings", arguments: arguments).map {
                TouchpadSettingsSource.gnome(String(decoding: $0, as: UTF8.self))
            }
        case .kde(let file):
            // No file yet: every setting is the device's default.
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            return TouchpadSettingsSource.kde(text, device: device)
        case .sway:
            return ProgramOutput.read("swaymsg", arguments: ["-t", "get_inputs", "--raw"]).flatMap {
                TouchpadSettingsSource.sway($0, device: device)
            }
        }
    }
}
