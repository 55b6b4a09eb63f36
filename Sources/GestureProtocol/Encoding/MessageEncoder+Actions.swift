import GestureControl
import GestureEngine

/// The control actions as `replay --control` prints them, one JSON object per line (an
/// extension of the project's, docs/control.md): `{"action":"motion","t":…,"dx":…,"dy":…}`,
/// `{"action":"button","t":…,"button":"left","state":"down"}`, `{"action":"wheel","t":…,"dx":…,"dy":…}`,
/// `{"action":"wheelStop","t":…}`, `{"action":"key","t":…,"key":"Control","state":"down"}`,
/// `{"action":"text","t":…,"text":…}`. `t` is the page-clock time at which the mapping took it.
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
        }
        out.append(UInt8(ascii: "}"))
    }
}

extension MessageEncoder {
    /// The answer to `settings` (additive, docs/protocol.md): the values in force for this
    /// connection, `{"type":"settings","speed":…,"acceleration":…,"naturalScroll":…,
    /// "scrollSpeed":…,"tapToClick":…,"tapAndDrag":…,"dragLock":…,"leftHanded":…}`, then what
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
