import CXTest

/// Presenter mode's spotlight on an X server (docs/control.md "Presenter mode"): a bright ring
/// around the pointer that a room can follow on the projector, where the pointer alone is
/// lost. It is a window of its own — override-redirect (no window manager frames or moves
/// it), shaped by the X Shape extension to a ring (the pointer stays visible in its hole) and
/// to nothing for input (every click goes through to what is under it) — centred on the
/// pointer after each batch that moved it, and raised then so it stays above other windows.
/// Confined to the display's thread. When the connection ends (the server stops or dies),
/// the X server destroys the window with it: nothing is left on the screen.
final class X11Spotlight {
    /// Its size and colour.
    struct Look: Sendable, Hashable {
        /// Outer diameter, px: about three times a default pointer, to be seen from the back
        /// of a room on a 1080p projector.
        var diameter: Int32 = 72
        /// Width of the ring, px.
        var thickness: Int32 = 8
        /// 0xRRGGBB: a saturated orange, which stays visible on white slides and on black ones.
        var colour: UInt32 = 0xFF_6A00
    }

    /// The window's name (`WM_NAME`), by which tests and users find it (`xwininfo -name`).
    static let windowName = "GesturePad spotlight"

    private let display: X11Display
    private let look: Look
    private var window: Window = 0
    /// Where its centre was put last (root coordinates).
    private var centre: (x: Int32, y: Int32)?
    private(set) var isShown = false

    init(display: X11Display, look: Look = Look()) {
        self.display = display
        self.look = look
    }

    /// Shows the ring at the pointer (made on first use).
    func show() {
        guard let x = display.usable else { return }
        if window == 0 { window = make(on: x) }
        guard window != 0 else { return }
        isShown = true
        centre = nil
        XMapRaised(x, window)
        follow()
    }

    func hide() {
        guard isShown else { return }
        isShown = false
        guard let x = display.usable, window != 0 else { return }
        XUnmapWindow(x, window)
    }

    /// Centres the ring on the pointer again, if it is shown and the pointer moved (one round
    /// trip to ask where the pointer is: the X server's acceleration decides that, not us).
    func follow() {
        guard isShown, let x = display.usable, window != 0, let (px, py, _) = display.pointerState() else { return }
        if let centre, centre.x == px, centre.y == py { return }
        centre = (px, py)
        let radius = look.diameter / 2
        XMoveWindow(x, window, px - radius, py - radius)
        XRaiseWindow(x, window)
    }

    /// The window, shaped and named, not mapped yet; 0 when the X server has no Shape
    /// extension (then there is no spotlight: a solid square would hide what it points at).
    private func make(on x: OpaquePointer) -> Window {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XShapeQueryExtension(x, &eventBase, &errorBase) != 0 else { return 0 }
        let screen = XDefaultScreen(x)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = pixel(on: x, screen: screen)
        attributes.border_pixel = 0
        let size = UInt32(look.diameter)
        let made = XCreateWindow(
            x, XRootWindow(x, screen), 0, 0, size, size, 0, XDefaultDepth(x, screen), UInt32(InputOutput),
            XDefaultVisual(x, screen), UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel), &attributes)
        guard made != 0 else { return 0 }
        var ring = Self.ring(diameter: look.diameter, thickness: look.thickness)
        XShapeCombineRectangles(x, made, ShapeBounding, 0, 0, &ring, Int32(ring.count), ShapeSet, Unsorted)
        XShapeCombineRectangles(x, made, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)
        XStoreName(x, made, Self.windowName)
        return made
    }

    /// The colour as a pixel of the default colormap (the nearest it has).
    private func pixel(on x: OpaquePointer, screen: Int32) -> UInt {
        var colour = XColor()
        colour.red = UInt16((look.colour >> 16) & 0xFF) * 257
        colour.green = UInt16((look.colour >> 8) & 0xFF) * 257
        colour.blue = UInt16(look.colour & 0xFF) * 257
        colour.flags = Int8(DoRed | DoGreen | DoBlue)
        guard XAllocColor(x, XDefaultColormap(x, screen), &colour) != 0 else { return XWhitePixel(x, screen) }
        return colour.pixel
    }

    /// A ring of outer diameter `diameter` and width `thickness` as one or two rectangles per
    /// row (`RingRows`, pure).
    private static func ring(diameter: Int32, thickness: Int32) -> [XRectangle] {
        RingRows.spans(diameter: Int(diameter), thickness: Int(thickness)).map {
            XRectangle(x: Int16($0.x), y: Int16($0.y), width: UInt16($0.width), height: 1)
        }
    }
}
