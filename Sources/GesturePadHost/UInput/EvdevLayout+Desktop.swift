import FoundationEssentials
import Logging

extension EvdevLayout {
    /// How long start-up waits for the Wayland compositor's keymap.
    static let waylandKeymapWait = 1.0

    /// The layout the uinput keyboard types through, said on the terminal: the one the user
    /// named (`--keyboard-layout`), else the desktop's — the Wayland compositor's keymap
    /// (`WAYLAND_DISPLAY`; on GNOME without the UI language's layout it appends; the first of
    /// several), else the X server's locked group (`DISPLAY`) — else US.
    static func forDesktop(named name: String?, environment: [String: String], logger: Logger) throws -> EvdevLayout {
        if let name {
            let layout = try compile(name)
            say(layout, from: "--keyboard-layout \(name)", logger: logger)
            return layout
        }
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty,
            var layouts = WaylandKeymap.readOnce(timeout: waylandKeymapWait), !layouts.isEmpty
        {
            if layouts.count > 1 && PortalDesktop(currentDesktop: environment["XDG_CURRENT_DESKTOP"]).appendsLocaleLayout {
                layouts.removeLast()
            }
            let layout = EvdevLayout(layouts[0])
            let others = layouts.count > 1 ? "; the first of \(layouts.map(\.name).joined(separator: ", "))" : ""
            say(layout, from: "the Wayland compositor's\(others)", logger: logger)
            return layout
        }
        if let displayName = environment["DISPLAY"], !displayName.isEmpty,
            let display = try? X11Display.open(name: displayName)
        {
            defer { display.close() }
            if let (layoutName, variant) = display.keyboardLayoutName(),
                let layouts = WaylandKeymap.layouts(layout: layoutName, variant: variant), let first = layouts.first
            {
                let layout = EvdevLayout(first)
                say(layout, from: "the X server's", logger: logger)
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
