/// One `RemoteDesktop.Notify*` call, without its session: what `PortalActionEncoder` makes of
/// host actions.
enum PortalNotify: Sendable, Hashable {
    /// `NotifyPointerMotion(dx, dy)`: relative motion in logical pixels.
    case pointerMotion(dx: Double, dy: Double)
    /// `NotifyPointerButton(button, state)`: an evdev button code (BTN_LEFT 272 …), pressed or not.
    case pointerButton(button: Int32, pressed: Bool)
    /// `NotifyPointerAxis({finish}, dx, dy)`: smooth scrolling, positive down / right.
    case pointerAxis(dx: Double, dy: Double, finish: Bool)
    /// `NotifyPointerAxisDiscrete(axis, steps)`: wheel clicks, axis 0 vertical / 1 horizontal,
    /// positive down / right.
    case pointerAxisDiscrete(axis: UInt32, steps: Int32)
    /// `NotifyKeyboardKeycode(keycode, state)`: an evdev key code.
    case keyboardKeycode(Int32, pressed: Bool)
    /// `NotifyKeyboardKeysym(keysym, state)`: an X11 keysym (Unicode keysyms for characters).
    case keyboardKeysym(Int32, pressed: Bool)

    /// The call on `session`.
    func methodCall(session: String) -> DBusMethodCall {
        let session = DBusValue.objectPath(session)
        let none = DBusValue.vardict([])
        let (member, arguments): (String, [DBusValue])
        switch self {
        case .pointerMotion(let dx, let dy):
            (member, arguments) = ("NotifyPointerMotion", [session, none, .double(dx), .double(dy)])
        case .pointerButton(let button, let pressed):
            (member, arguments) = ("NotifyPointerButton", [session, none, .int32(button), Self.state(pressed)])
        case .pointerAxis(let dx, let dy, let finish):
            let options = DBusValue.vardict(finish ? [DBusEntry("finish", .bool(true))] : [])
            (member, arguments) = ("NotifyPointerAxis", [session, options, .double(dx), .double(dy)])
        case .pointerAxisDiscrete(let axis, let steps):
            (member, arguments) = ("NotifyPointerAxisDiscrete", [session, none, .uint32(axis), .int32(steps)])
        case .keyboardKeycode(let code, let pressed):
            (member, arguments) = ("NotifyKeyboardKeycode", [session, none, .int32(code), Self.state(pressed)])
        case .keyboardKeysym(let keysym, let pressed):
            (member, arguments) = ("NotifyKeyboardKeysym", [session, none, .int32(keysym), Self.state(pressed)])
        }
        return DBusMethodCall(
            destination: PortalBus.service, path: PortalBus.objectPath, interface: PortalBus.remoteDesktop,
            member: member, arguments: arguments)
    }

    private static func state(_ pressed: Bool) -> DBusValue { .uint32(pressed ? 1 : 0) }
}
