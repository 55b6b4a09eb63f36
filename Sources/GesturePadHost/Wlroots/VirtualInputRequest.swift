/// One request to a wlroots compositor's virtual pointer (`zwlr_virtual_pointer_v1`) or
/// virtual keyboard (`zwp_virtual_keyboard_v1`), as `WlrootsActionEncoder` decides it; the
/// executor stamps the time and sends it. Plain values, no I/O.
enum VirtualInputRequest: Sendable, Hashable {
    /// `wl_pointer.axis`: 0 vertical, 1 horizontal.
    enum Axis: UInt32, Sendable, Hashable {
        case vertical = 0
        case horizontal = 1
    }

    /// `wl_pointer.axis_source`.
    enum AxisSource: UInt32, Sendable, Hashable {
        case wheel = 0
        case finger = 1
    }

    /// Relative motion, compositor pixels.
    case motion(dx: Double, dy: Double)
    /// An evdev button code (BTN_LEFT 272 …) goes down or up.
    case button(code: UInt32, pressed: Bool)
    /// Where the axis event named last comes from (wlroots keeps a source per axis: it follows
    /// each axis request).
    case axisSource(AxisSource)
    /// Smooth scroll, in the units a touchpad scrolls (positive: down / right).
    case axis(Axis, value: Double)
    /// Wheel clicks: `steps` detents, `value` their length.
    case axisDiscrete(Axis, value: Double, steps: Int32)
    /// The scroll on `axis` stopped (the fingers lifted, a coast came to rest): where clients
    /// start or end their own kinetic scrolling.
    case axisStop(Axis)
    /// The end of a group of pointer requests.
    case frame
    /// A new XKB keymap (text) for the virtual keyboard.
    case keymap(String)
    /// An evdev key code goes down or up.
    case key(code: UInt32, pressed: Bool)
    /// The modifiers held (real-modifier mask of the keymap): the compositor does not derive
    /// them from key events.
    case modifiers(depressed: UInt32)

    /// Whether the request goes to the keyboard (else to the pointer).
    var isKeyboard: Bool {
        switch self {
        case .keymap, .key, .modifiers: true
        case .motion, .button, .axisSource, .axis, .axisDiscrete, .axisStop, .frame: false
        }
    }
}
