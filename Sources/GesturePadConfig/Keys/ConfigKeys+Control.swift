import GestureControl
import GestureEngine

extension ConfigKeys {
    /// `control:` — the backend and the control layer's `ControlSettings` (docs/control.md);
    /// `--control`, `--speed`, `--acceleration` and `--no-natural-scroll` override it.
    public static let control = ConfigSection(
        "control",
        [
            .choice("backend", \.controlBackend, default: ControlMode.auto, "what drives the computer (`--control`)"),
            .number(
                "speed", \.control.speed, ControlSettings.speedBound,
                "pointer speed factor, on top of acceleration (`--speed`)"),
            .value(
                "acceleration", \.controlAcceleration, kind: "`adaptive` / `flat`",
                default: "the backend's: `adaptive` (x11, portal, wlroots), `flat` (uinput, touchpad)",
                "pointer acceleration (`--acceleration`)"
            ) { $0.choice($1, key: $2, AccelerationProfile.self) },
            .flag("naturalScroll", \.control.naturalScroll, "natural: content follows the fingers (`--no-natural-scroll`)"),
            .number("scrollSpeed", \.control.scrollSpeed, ControlSettings.scrollSpeedBound, "factor on wheel amounts"),
            .value(
                "kineticScrolling", \.controlKineticScrolling, kind: "bool",
                default: "the backend's: `true` (x11, uinput, wlroots), `false` (portal, touchpad: the desktop coasts)",
                "a two-finger scroll lifted fast keeps scrolling and comes to rest"
            ) { $0.boolean($1, key: $2) },
            .text(
                "keyboardLayout", \.controlKeyboardLayout,
                default: "the desktop's (Wayland, X11), else `us` (wlroots: the seat's keymap, else `us`)",
                "the desktop's keyboard layout, which uinput and touchpad type through, and the base of wlroots' keymap: an XKB layout, optionally with its variant (`de`, `de+nodeadkeys`; `--keyboard-layout`)"
            ),
            .flag("tapToClick", \.control.tapToClick, "taps click"),
            .flag("tapAndDrag", \.control.tapAndDrag, "tap, then touch again and move: drag"),
            .flag("dragLock", \.control.dragLock, "after a drag the button stays down until the next tap or the timeout"),
            .number("dragLockTimeout", \.control.dragLockTimeout, .positive, "ms the drag lock waits for the finger"),
            .value(
                "tapButtons", \.control.tapButtons, kind: "list of 1–3 of `left` / `right` / `middle`",
                default: "`[\(ControlSettings().tapButtons.map(\.rawValue).joined(separator: ", "))]`",
                "buttons of one-, two- and three-finger taps"
            ) { $0.tapButtons($1, key: $2) },
            .flag("leftHanded", \.control.leftHanded, "swap left and right (taps, and a mouse on the page)"),
            .flag("pinchZoom", \.control.pinchZoom, "pinch zooms (Control + wheel)"),
            .number("zoomStep", \.control.zoomStep, .above(1), "pinch scale change per zoom step"),
            ConfigKey(
                name: "swipeKeys", kind: "mapping", defaultValue: "see below",
                meaning: "key combination per three-finger swipe direction (`left`, `right`, `up`, `down`), or `none`"
            ) { reader, node, key, config in
                reader.swipeKeys(node, key: key, into: &config.control.swipeKeys)
            },
            .number(
                "releaseAfterSilence", \.control.releaseAfterSilence, .positive,
                "ms without any message after which whatever the connection holds is released"),
        ])
}
