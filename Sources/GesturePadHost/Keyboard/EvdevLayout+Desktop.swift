import FoundationEssentials
import Logging

extension EvdevLayout {
    /// How long start-up waits for the Wayland compositor's keymap.
    static let waylandKeymapWait = 1.0

    /// The layout the uinput keyboard types through, said on the terminal: the one the user
    /// named (`--keyboard-layout`), else the desktop's — the Wayland compositor's keymap
    /// (`WAYLAND_DISPLAY`; on GNOME without the UI language's layout it appends; with several
    /// layouts what they all type alike, `init(agreedBy:)`), else the X server's layouts
    /// (`DISPLAY`; several, likewise) — else US.
    static func forDesktop(named name: String?, environment: [String: String], logger: Logger) throws -> EvdevLayout {
        if let name {
            let layout = try compile(name)
            say(layout, from: "--keyboard-layout \(name)", logger: logger)
            return layout
        }
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty, let keymap = SeatKeymapClient.readOnce(timeout: waylandKeymapWait) {
            let gnome = DesktopKind(currentDesktop: environment["XDG_CURRENT_DESKTOP"]).appendsLocaleLayout
            let layouts = KeymapLayout.selectable(keymap.layouts, localeLayoutLast: gnome)
            if let layout = EvdevLayout(agreedBy: layouts) {
                let several = layouts.count > 1 ? "; only what every one of them types on the same key and level" : ""
                say(layout, from: "the Wayland compositor's\(several)", logger: logger)
                return layout
            }
        }
        if let displayName = environment["DISPLAY"], !displayName.isEmpty,
            let display = try? X11Display.open(name: displayName)
        {
            defer { display.close() }
            if let (layoutNames, variants) = display.keyboardLayoutNames(),
                let keymap = XKBKeymap(layout: layoutNames, variant: variants),
                let layout = EvdevLayout(agreedBy: keymap.layouts)
            {
                let several = keymap.layouts.count > 1 ? "; only what every one of them types on the same key and level" : ""
                say(layout, from: "the X server's\(several)", logger: logger)
                return layout
            }
        }
        logger.notice(
            "control: the desktop's keyboard layout is not known: typing US key codes (ASCII); set --keyboard-layout if it is another"
        )
        return .us
    }

    private static func say(_ layout: EvdevLayout, from source: String, logger: Logger) {
        logger.notice(
            "control: the desktop's keyboard layout (\(source)): \(layout.name) (\(layout.strokes.count) characters)")
    }
}
