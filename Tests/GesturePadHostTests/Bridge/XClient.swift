import CXTest
import Foundation
import Glibc

/// A second X client for the x11 tests: it sees what an application would see of the
/// backend's work (the pointer, the keys down, the events on a window).
final class XClient {
    struct Pointer: Equatable, CustomStringConvertible {
        var x: Int32
        var y: Int32
        var mask: UInt32
        var description: String { "(\(x), \(y)) mask 0x\(String(mask, radix: 16))" }
    }

    /// Button masks in `Pointer.mask`.
    static let button1 = UInt32(Button1Mask)
    static let button2 = UInt32(Button2Mask)
    static let button3 = UInt32(Button3Mask)
    static let allButtons = button1 | button2 | button3

    private let display: OpaquePointer
    private let root: Window
    private var window: Window = 0

    init?(name: String) {
        guard let display = XOpenDisplay(name) else { return nil }
        self.display = display
        root = XDefaultRootWindow(display)
    }

    deinit {
        XCloseDisplay(display)
    }

    /// Sets `_XKB_RULES_NAMES` on the root window (rules, model, layout, variant, options), as
    /// a desktop's keyboard settings do when they apply a layout.
    func setRulesNames(_ fields: [String]) {
        let atom = XInternAtom(display, "_XKB_RULES_NAMES", 0)
        var bytes: [UInt8] = []
        for field in fields { bytes += Array(field.utf8) + [0] }
        XChangeProperty(display, root, atom, Atom(XA_STRING), 8, PropModeReplace, bytes, Int32(bytes.count))
        XSync(display, 0)
    }

    func warpPointer(x: Int32, y: Int32) {
        XWarpPointer(display, 0, root, 0, 0, 0, 0, x, y)
        XSync(display, 0)
    }

    func pointer() -> Pointer {
        var rootReturn: Window = 0
        var child: Window = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var windowX: Int32 = 0
        var windowY: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, root, &rootReturn, &child, &rootX, &rootY, &windowX, &windowY, &mask)
        return Pointer(x: rootX, y: rootY, mask: mask)
    }

    /// Polls the pointer until `condition` holds or `timeout` passes; the last state seen.
    func waitForPointer(timeout: Double = 3, _ condition: (Pointer) -> Bool) -> Pointer {
        let deadline = Date().addingTimeInterval(timeout)
        var state = pointer()
        while !condition(state), Date() < deadline {
            usleep(2_000)
            state = pointer()
        }
        return state
    }

    /// The keycodes down now (XQueryKeymap).
    func keycodesDown() -> [UInt32] {
        var bits = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &bits)
        return (0..<256).compactMap { keycode in
            UInt8(bitPattern: bits[keycode / 8]) & (1 << UInt8(keycode % 8)) != 0 ? UInt32(keycode) : nil
        }
    }

    /// Polls the keys down until none is, or `timeout` passes; the last set seen.
    func waitForNoKeysDown(timeout: Double = 3) -> [UInt32] {
        let deadline = Date().addingTimeInterval(timeout)
        var down = keycodesDown()
        while !down.isEmpty, Date() < deadline {
            usleep(2_000)
            down = keycodesDown()
        }
        return down
    }

    /// A full-screen override-redirect window for keys and buttons, mapped and focused, so
    /// XTest events land on it.
    func openInputWindow(width: UInt32, height: UInt32) -> Bool {
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.event_mask = KeyPressMask | KeyReleaseMask | ButtonPressMask | ButtonReleaseMask | StructureNotifyMask
        window = XCreateWindow(
            display, root, 0, 0, width, height, 0, 0, UInt32(InputOutput), nil, UInt(CWOverrideRedirect | CWEventMask),
            &attributes)
        XMapRaised(display, window)
        while let event = nextEvent(timeout: 5) {
            if event.type == MapNotify {
                XSetInputFocus(display, window, RevertToParent, 0)
                XSync(display, 0)
                return true
            }
        }
        return false
    }

    /// The next event, waiting at most `timeout` seconds (poll on the connection).
    func nextEvent(timeout: Double) -> XEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        while XPending(display) == 0 {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Int32(remaining * 1000) + 1)
        }
        var event = XEvent()
        XNextEvent(display, &event)
        return event
    }

    /// Key presses (keycode, state) and button presses (button) that arrive on the window
    /// within `timeout`, until `count` of the wanted kind arrived.
    func keyPresses(count: Int, timeout: Double = 5) -> [(keycode: UInt32, state: UInt32)] {
        var presses: [(keycode: UInt32, state: UInt32)] = []
        while presses.count < count, let event = nextEvent(timeout: timeout) {
            if event.type == KeyPress { presses.append((event.xkey.keycode, event.xkey.state)) }
        }
        return presses
    }

    func buttonPresses(count: Int, timeout: Double = 5) -> [UInt32] {
        var buttons: [UInt32] = []
        while buttons.count < count, let event = nextEvent(timeout: timeout) {
            if event.type == ButtonPress { buttons.append(event.xbutton.button) }
        }
        return buttons
    }

    /// The keysym `keycode` types now, asking the server (not a cache that MappingNotify
    /// would have to refresh): column 1 with Shift, else column 0.
    func keysym(keycode: UInt32, shifted: Bool) -> UInt {
        let row = keyboardMapping(first: keycode, count: 1)
        let column = shifted ? 1 : 0
        return column < row.count ? row[column] : 0
    }

    /// The server's keyboard mapping of `count` keycodes from `first`, every column.
    func keyboardMapping(first: UInt32 = 8, count: Int32 = 248) -> [UInt] {
        var perKeycode: Int32 = 0
        guard let keysyms = XGetKeyboardMapping(display, KeyCode(first), count, &perKeycode) else { return [] }
        defer { XFree(keysyms) }
        return Array(UnsafeBufferPointer(start: keysyms, count: Int(count * perKeycode)))
    }
}
