import FoundationEssentials
import GestureControl

/// Where the desktop keeps its touchpad settings, and how each one's answer reads (pure: text
/// in, `DesktopTouchpadSettings` out; `TouchpadSettingsReader` does the reading).
/// - GNOME: `gsettings list-recursively org.gnome.desktop.peripherals.touchpad`.
/// - KDE Plasma: `kcminputrc`'s `[Libinput][VENDOR][PRODUCT][DEVICE NAME]` group for the device.
/// - sway: `swaymsg -t get_inputs --raw`, the device's `libinput` object (what sway applied).
public enum TouchpadSettingsSource: Sendable, Hashable {
    case gnome
    case kde(configFile: String)
    case sway

    /// The source of the session described by `environment` (`XDG_CURRENT_DESKTOP`, `SWAYSOCK`,
    /// `XDG_CONFIG_HOME`, `HOME`), or nil when the desktop keeps none GesturePad can read.
    public static func of(environment: [String: String]) -> TouchpadSettingsSource? {
        if environment["SWAYSOCK"].map({ !$0.isEmpty }) == true { return .sway }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        if desktops.contains("GNOME") { return .gnome }
        if desktops.contains("KDE") {
            let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            let home = configHome ?? (environment["HOME"] ?? "") + "/.config"
            return .kde(configFile: home + "/kcminputrc")
        }
        if desktops.contains("SWAY") { return .sway }
        return nil
    }

    /// GNOME's `gsettings list-recursively` lines (`SCHEMA KEY VALUE`).
    public static func gnome(_ text: String) -> DesktopTouchpadSettings {
        var settings = DesktopTouchpadSettings(desktop: "GNOME", changeWhere: "Settings › Mouse & Touchpad › Touchpad")
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { continue }
            switch parts[1] {
            case "tap-to-click": settings.tapToClick = bool(parts[2])
            case "natural-scroll": settings.naturalScrolling = bool(parts[2])
            case "speed": settings.speed = Double(parts[2])
            case "disable-while-typing": settings.disableWhileTyping = bool(parts[2])
            default: continue
            }
        }
        return settings
    }

    /// KDE's `kcminputrc`: the keys of the group whose last part is `device`.
    public static func kde(_ text: String, device: String) -> DesktopTouchpadSettings {
        var settings = DesktopTouchpadSettings(
            desktop: "KDE Plasma", changeWhere: "System Settings › Input Devices › Touchpad (GesturePad touchpad)")
        var inGroup = false
        for raw in text.split(separator: "\n") {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                inGroup = line.hasPrefix("[Libinput]") && line.hasSuffix("[\(device)]")
                continue
            }
            guard inGroup, let equals = line.firstIndex(of: "=") else { continue }
            let value = String(line[line.index(after: equals)...])
            switch line[..<equals] {
            case "TapToClick": settings.tapToClick = bool(value)
            case "NaturalScroll": settings.naturalScrolling = bool(value)
            case "PointerAcceleration": settings.speed = Double(value)
            case "DisableWhileTyping": settings.disableWhileTyping = bool(value)
            default: continue
            }
        }
        return settings
    }

    /// sway's `get_inputs` answer: the `libinput` object of the input named `device`; nil when
    /// sway does not list it (the touchpad backend is not running).
    public static func sway(_ json: [UInt8], device: String) -> DesktopTouchpadSettings? {
        struct Input: Decodable {
            var name: String?
            var libinput: Libinput?
        }
        struct Libinput: Decodable {
            var tap: String?
            var natural_scroll: String?
            var accel_speed: Double?
            var dwt: String?
        }
        guard let inputs = try? JSONDecoder().decode([Input].self, from: Data(json)),
            let found = inputs.first(where: { $0.name == device })
        else { return nil }
        let libinput = found.libinput
        return DesktopTouchpadSettings(
            desktop: "sway", tapToClick: libinput?.tap.map { $0 == "enabled" },
            naturalScrolling: libinput?.natural_scroll.map { $0 == "enabled" }, speed: libinput?.accel_speed,
            disableWhileTyping: libinput?.dwt.map { $0 == "enabled" },
            changeWhere: "sway's configuration: input type:touchpad { tap enabled } (swaymsg applies it at once)")
    }

    private static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }
}
