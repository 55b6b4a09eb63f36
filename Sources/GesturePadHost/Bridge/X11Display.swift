import CXTest
import FoundationEssentials
import Synchronization

/// One connection to an X server, for the `x11` backend: the only code that touches Xlib's
/// pointers. Confined to one thread (the backend's worker thread) from `open` to `close`.
///
/// Xlib's default handlers end the process on a protocol error or a lost connection; the
/// server must survive both (the X session ends, the phone goes on drawing). So a protocol
/// error is counted and ignored, and a lost connection sets `isConnectionLost`, after which
/// every call here does nothing.
final class X11Display {
    /// `Display *`: an incomplete C type, hence opaque.
    private var handle: OpaquePointer?
    /// Written by Xlib's I/O-error exit handler (on this thread, inside an Xlib call).
    private let lostFlag: UnsafeMutablePointer<Int32>

    private init(handle: OpaquePointer) {
        self.handle = handle
        lostFlag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        lostFlag.initialize(to: 0)
        XSetIOErrorExitHandler(handle, { _, flag in flag?.assumingMemoryBound(to: Int32.self).pointee = 1 }, lostFlag)
    }

    deinit {
        close()
        lostFlag.deallocate()
    }

    /// Connects to `name` (nil: `DISPLAY`) and checks for XTEST.
    static func open(name: String?) throws -> X11Display {
        X11ErrorTrap.install()
        let shown = name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard !shown.isEmpty else { throw ControlBackendError.x11("cannot open X display: DISPLAY is not set") }
        guard let handle = XOpenDisplay(shown) else {
            throw ControlBackendError.x11(
                "cannot open X display \(shown): no X server there, or this user may not connect (see DISPLAY, XAUTHORITY)"
            )
        }
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XTestQueryExtension(handle, &eventBase, &errorBase, &major, &minor) != 0 else {
            XCloseDisplay(handle)
            throw ControlBackendError.x11("the X server has no XTEST extension")
        }
        return X11Display(handle: handle)
    }

    /// The keyboard layouts the X server types with, as XKB names them: every group's layout
    /// and variant, comma-separated as `_XKB_RULES_NAMES` on the root window lists them (what
    /// `setxkbmap -query` prints: "us,de" and ","), which xkbcommon compiles into one keymap of
    /// that many layouts. Nil when the server has no such property.
    func keyboardLayoutNames() -> (layout: String, variant: String)? {
        guard let display = usable else { return nil }
        let atom = XInternAtom(display, "_XKB_RULES_NAMES", 1)
        guard atom != 0 else { return nil }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, XDefaultRootWindow(display), atom, 0, 1024, 0, Atom(XA_STRING), &type, &format, &count,
            &remaining, &data)
        guard status == Success, let data else { return nil }
        defer { XFree(data) }
        guard format == 8 else { return nil }
        // rules, model, layout, variant, options: NUL-terminated strings.
        let fields = UnsafeBufferPointer(start: data, count: Int(count))
            .split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard fields.count > 3, !fields[2].isEmpty else { return nil }
        return (fields[2], fields[3])
    }

    /// The connection broke (the X server ended); nothing reaches it any more.
    var isConnectionLost: Bool { lostFlag.pointee != 0 }

    func fakeRelativeMotion(dx: Int, dy: Int) {
        guard let display = usable else { return }
        XTestFakeRelativeMotionEvent(display, Self.clamped(dx), Self.clamped(dy), 0)
    }

    func fakeButton(_ number: Int, down: Bool) {
        guard let display = usable, number > 0 else { return }
        XTestFakeButtonEvent(display, UInt32(number), down ? 1 : 0, 0)
    }

    func fakeKey(_ keycode: Keycode, down: Bool) {
        guard let display = usable else { return }
        XTestFakeKeyEvent(display, keycode, down ? 1 : 0, 0)
    }

    /// Binds `keycode` to `keysym` in columns 0 and 1 (`NoSymbol`: unbinds it).
    func bind(_ keycode: Keycode, to keysym: Keysym) {
        guard let display = usable else { return }
        var keysyms: [KeySym] = [keysym, keysym]
        XChangeKeyboardMapping(display, Int32(keycode), 2, &keysyms, 1)
    }

    /// The server's whole core keyboard mapping (one round trip).
    func keyboardMapping() -> X11Keymap {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        var perKeycode: Int32 = 0
        guard let display = usable else { return X11Keymap(minimumKeycode: 8, keysymsPerKeycode: 1, keysyms: []) }
        XDisplayKeycodes(display, &minimum, &maximum)
        let count = Int(maximum - minimum + 1)
        guard count > 0, let keysyms = XGetKeyboardMapping(display, KeyCode(minimum), Int32(count), &perKeycode)
        else { return X11Keymap(minimumKeycode: 8, keysymsPerKeycode: 1, keysyms: []) }
        defer { XFree(keysyms) }
        let copy = Array(UnsafeBufferPointer(start: keysyms, count: count * Int(perKeycode)))
        return X11Keymap(minimumKeycode: Keycode(minimum), keysymsPerKeycode: Int(perKeycode), keysyms: copy)
    }

    /// Releases, through XTest, every core button and key the X server has down now, and waits
    /// until it has handled that; returns how many there were. For the backend's start: a
    /// server that was killed with its release guard leaves its presses in the X server, which
    /// keeps an XTest client's presses after the client is gone. (XTest releases a key or button
    /// on its own device only: one down on a real keyboard or mouse is not touched.)
    func releaseEverythingDown() -> Int {
        guard let display = usable else { return 0 }
        var count = 0
        if let mask = pointerState()?.mask {
            // Button1Mask is 1 << 8, Button5Mask 1 << 12.
            for button in 1...5 where mask & (UInt32(1) << UInt32(7 + button)) != 0 {
                XTestFakeButtonEvent(display, UInt32(button), 0, 0)
                count += 1
            }
        }
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &keys)
        for keycode in 8..<256 where UInt8(bitPattern: keys[keycode / 8]) & (1 << UInt8(keycode % 8)) != 0 {
            XTestFakeKeyEvent(display, UInt32(keycode), 0, 0)
            count += 1
        }
        XSync(display, 0)
        return count
    }

    /// The connection's socket, to wait on with `poll` (its events are read by
    /// `takeKeyboardMappingChanged`); -1 once the connection is closed or lost.
    var connectionNumber: Int32 {
        guard let display = usable else { return -1 }
        return XConnectionNumber(display)
    }

    /// Sends the buffered requests (no round trip).
    func flush() {
        guard let display = usable else { return }
        XFlush(display)
    }

    /// Sends the buffered requests and waits until the server has handled them.
    func sync() {
        guard let display = usable else { return }
        XSync(display, 0)
    }

    /// Reads the events that arrived (only MappingNotify and XKB's own reach this client:
    /// it selects none) so that they do not pile up; true when the keyboard mapping changed.
    func takeKeyboardMappingChanged() -> Bool {
        guard let display = usable else { return false }
        var changed = false
        while XPending(display) > 0, !isConnectionLost {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == MappingNotify, event.xmapping.request == MappingKeyboard { changed = true }
        }
        return changed
    }

    func close() {
        guard let display = handle else { return }
        handle = nil
        XCloseDisplay(display)
    }

    /// Where the pointer is on the root window and which buttons and modifiers are down (one
    /// round trip); nil when the connection is lost or the pointer is on another screen.
    func pointerState() -> (x: Int32, y: Int32, mask: UInt32)? {
        guard let display = usable else { return nil }
        var root: Window = 0
        var child: Window = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var windowX: Int32 = 0
        var windowY: Int32 = 0
        var mask: UInt32 = 0
        guard
            XQueryPointer(display, XDefaultRootWindow(display), &root, &child, &rootX, &rootY, &windowX, &windowY, &mask)
                != 0
        else { return nil }
        return (rootX, rootY, mask)
    }

    /// The connection while it works: for the other bridges of this display (`X11Spotlight`),
    /// on the same thread.
    var usable: OpaquePointer? { isConnectionLost ? nil : handle }

    private static func clamped(_ value: Int) -> Int32 {
        Int32(clamping: value)
    }
}

/// Xlib's process-wide error handlers, replaced once so that errors do not end the process.
private enum X11ErrorTrap {
    private static let installed = Mutex(false)

    static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            XSetErrorHandler { _, _ in 0 }
            // The default handler prints and, in older Xlib, exits; the per-display exit
            // handler above records the loss instead of ending the process.
            XSetIOErrorHandler { _ in 0 }
        }
    }
}
