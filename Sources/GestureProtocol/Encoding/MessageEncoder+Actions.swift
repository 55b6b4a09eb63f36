import GestureControl
import GestureEngine

/// The control actions as `replay --actions` prints them, one JSON object per line (an
/// extension of the project's, docs/control.md): `{"action":"motion","t":…,"dx":…,"dy":…}`,
/// `{"action":"button","t":…,"button":"left","state":"down"}`, `{"action":"wheel","t":…,"dx":…,"dy":…}`,
/// `{"action":"wheelStop","t":…}`, `{"action":"key","t":…,"key":"Control","state":"down"}`,
/// `{"action":"text","t":…,"text":…}`; touches passed through to the `touchpad` backend:
/// `{"action":"surface","t":…,"width":…,"height":…}` and, per slot change of a frame
/// (`appendContact`), `{"action":"contact","t":…,"slot":0,"trackingId":0,"x":…,"y":…,"fingers":1}`
/// (`trackingId` −1: the finger lifted). `t` is the page-clock time at which the mapping took it.
extension MessageEncoder {
    public static func appendAction(_ action: HostAction, t: Double, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"action\":\"", to: &out)
        switch action {
        case .motion: JSONWriter.appendASCII("motion", to: &out)
        case .button: JSONWriter.appendASCII("button", to: &out)
        case .wheel: JSONWriter.appendASCII("wheel", to: &out)
        case .wheelStop: JSONWriter.appendASCII("wheelStop", to: &out)
        case .key: JSONWriter.appendASCII("key", to: &out)
        case .text: JSONWriter.appendASCII("text", to: &out)
        case .contact: JSONWriter.appendASCII("touch", to: &out)
        case .touchSurface: JSONWriter.appendASCII("surface", to: &out)
        case .spotlight: JSONWriter.appendASCII("spotlight", to: &out)
        }
        JSONWriter.appendASCII("\",\"t\":", to: &out)
        JSONWriter.appendNumber(t, to: &out)
        switch action {
        case .motion(let dx, let dy):
            JSONWriter.appendASCII(",\"dx\":", to: &out)
            JSONWriter.appendInteger(dx, to: &out)
            JSONWriter.appendASCII(",\"dy\":", to: &out)
            JSONWriter.appendInteger(dy, to: &out)
        case .button(let button, let state):
            JSONWriter.appendASCII(",\"button\":\"", to: &out)
            JSONWriter.appendASCII(button.rawValue, to: &out)
            JSONWriter.appendASCII("\",\"state\":\"", to: &out)
            JSONWriter.appendASCII(state.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        case .wheel(let dx, let dy):
            JSONWriter.appendASCII(",\"dx\":", to: &out)
            JSONWriter.appendNumber(dx, to: &out)
            JSONWriter.appendASCII(",\"dy\":", to: &out)
            JSONWriter.appendNumber(dy, to: &out)
        case .wheelStop:
            break
        case .key(let key, let state):
            JSONWriter.appendASCII(",\"key\":", to: &out)
            JSONWriter.appendString(key.w3cName, to: &out)
            JSONWriter.appendASCII(",\"state\":\"", to: &out)
            JSONWriter.appendASCII(state.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        case .text(let text):
            JSONWriter.appendASCII(",\"text\":", to: &out)
            JSONWriter.appendString(text, to: &out)
        case .contact(let contact):
            JSONWriter.appendASCII(",\"id\":", to: &out)
            JSONWriter.appendInteger(contact.id, to: &out)
            JSONWriter.appendASCII(",\"phase\":\"", to: &out)
            JSONWriter.appendASCII(contact.phase.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
            appendPosition(x: contact.x, y: contact.y, to: &out)
        case .touchSurface(_, let width, let height):
            JSONWriter.appendASCII(",\"width\":", to: &out)
            JSONWriter.appendNumber(width, to: &out)
            JSONWriter.appendASCII(",\"height\":", to: &out)
            JSONWriter.appendNumber(height, to: &out)
        case .spotlight(let on):
            JSONWriter.appendASCII(",\"on\":", to: &out)
            JSONWriter.appendBool(on, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// One slot change of a native touchpad's frame, as `replay --actions` prints what the
    /// `touchpad` backend writes: `fingers` is the count on the touchpad after the frame.
    public static func appendContact(_ change: TouchpadSlots.Change, fingers: Int, t: Double, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"action\":\"contact\",\"t\":", to: &out)
        JSONWriter.appendNumber(t, to: &out)
        JSONWriter.appendASCII(",\"slot\":", to: &out)
        JSONWriter.appendInteger(change.slot, to: &out)
        JSONWriter.appendASCII(",\"trackingId\":", to: &out)
        JSONWriter.appendInteger(change.trackingID, to: &out)
        appendPosition(x: change.x, y: change.y, to: &out)
        JSONWriter.appendASCII(",\"fingers\":", to: &out)
        JSONWriter.appendInteger(fingers, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private static func appendPosition(x: Double, y: Double, to out: inout [UInt8]) {
        JSONWriter.appendASCII(",\"x\":", to: &out)
        JSONWriter.appendNumber(x, to: &out)
        JSONWriter.appendASCII(",\"y\":", to: &out)
        JSONWriter.appendNumber(y, to: &out)
    }
}

extension MessageEncoder {
    /// The answer to `settings` (additive, docs/protocol.md): the values in force for this
    /// connection, `{"type":"settings","speed":…,"acceleration":…,"naturalScroll":…,
    /// "scrollSpeed":…,"tapToClick":…,"tapAndDrag":…,"dragLock":…,"leftHanded":…,
    /// "kineticScrolling":…}`, then what
    /// the page cannot change but shows (what the computer does for a gesture):
    /// `"pinchZoom":…,"tapButtons":["left","right","middle"],"swipes":{"left":"Alt+ArrowRight",…}`
    /// (bound three-finger swipe directions only).
    public static func appendSettings(_ s: ControlSettings, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"settings\",\"speed\":", to: &out)
        JSONWriter.appendNumber(s.speed, to: &out)
        JSONWriter.appendASCII(",\"acceleration\":\"", to: &out)
        JSONWriter.appendASCII(s.acceleration.rawValue, to: &out)
        JSONWriter.appendASCII("\",\"naturalScroll\":", to: &out)
        JSONWriter.appendBool(s.naturalScroll, to: &out)
        JSONWriter.appendASCII(",\"scrollSpeed\":", to: &out)
        JSONWriter.appendNumber(s.scrollSpeed, to: &out)
        JSONWriter.appendASCII(",\"tapToClick\":", to: &out)
        JSONWriter.appendBool(s.tapToClick, to: &out)
        JSONWriter.appendASCII(",\"tapAndDrag\":", to: &out)
        JSONWriter.appendBool(s.tapAndDrag, to: &out)
        JSONWriter.appendASCII(",\"dragLock\":", to: &out)
        JSONWriter.appendBool(s.dragLock, to: &out)
        JSONWriter.appendASCII(",\"leftHanded\":", to: &out)
        JSONWriter.appendBool(s.leftHanded, to: &out)
        JSONWriter.appendASCII(",\"kineticScrolling\":", to: &out)
        JSONWriter.appendBool(s.kineticScrolling, to: &out)
        JSONWriter.appendASCII(",\"pinchZoom\":", to: &out)
        JSONWriter.appendBool(s.pinchZoom, to: &out)
        JSONWriter.appendASCII(",\"tapButtons\":[", to: &out)
        for (i, button) in s.tapButtons.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(button.rawValue, to: &out)
        }
        JSONWriter.appendASCII("],\"swipes\":{", to: &out)
        var first = true
        for direction in SwipeDirection.allCases {
            guard let keys = s.swipeKeys[direction] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.appendString(direction.name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.appendString(keys.description, to: &out)
        }
        out.append(contentsOf: "}}".utf8)
    }
}
