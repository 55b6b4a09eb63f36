import GestureControl
import GestureEngine

/// Writes the server → page messages of PROTOCOL.md as JSON bytes.
///
/// The one encoder of every server → page message and of the gesture log lines (the sinks
/// add `time` through `appendGesture(_:session:time:to:)`). The session id is passed
/// pre-encoded (`sessionLiteral(_:)`, a quoted JSON string) so a gesture event is written
/// without building any `String`.
public enum MessageEncoder {
    /// The session id as a quoted, escaped JSON string, e.g. `"\"a1\""` as bytes.
    public static func sessionLiteral(_ session: String) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter.appendString(session, to: &out)
        return out
    }

    /// `{"type":"welcome","protocol":1,"session":…,"config":{every GestureConfig key: value},
    /// "control":{"active":true,"backend":…} | {"active":false,"reason":…}}` (CONTROL.md), and
    /// `"device":{…}` (additive, docs/protocol.md "Pairing") when the connection is a paired device's;
    /// `"host":…,"run":…` after `server` (additive, "Server identity") when `identity` is given.
    public static func appendWelcome(
        session: String, config: GestureConfig, control: ControlContext.Status, device: DeviceGreeting? = nil,
        identity: ServerIdentity? = nil, to out: inout [UInt8]
    ) {
        JSONWriter.appendASCII("{\"type\":\"welcome\",\"protocol\":1,\"session\":", to: &out)
        JSONWriter.appendString(session, to: &out)
        JSONWriter.appendASCII(",\"server\":", to: &out)
        JSONWriter.appendString(GesturePadVersion.serverName, to: &out)
        if let identity {
            JSONWriter.appendASCII(",\"host\":", to: &out)
            JSONWriter.appendString(identity.host, to: &out)
            JSONWriter.appendASCII(",\"run\":", to: &out)
            JSONWriter.appendString(identity.run, to: &out)
        }
        JSONWriter.appendASCII(",\"config\":{", to: &out)
        for (i, key) in GestureConfig.keys.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.appendNumber(config.value(forKey: key) ?? 0, to: &out)
        }
        JSONWriter.appendASCII("},\"control\":{", to: &out)
        appendControlFields(control, to: &out)
        out.append(UInt8(ascii: "}"))
        if let device {
            JSONWriter.appendASCII(",\"device\":", to: &out)
            appendDevice(device, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"pong","t":…,"serverTime":…}`; `t` is the ping's number text (`frame[echo]`),
    /// copied verbatim so the page gets back exactly what it sent.
    public static func appendPong(frame: Span<UInt8>, echo: Range<Int>, serverTime: Double, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"pong\",\"t\":", to: &out)
        for i in echo { out.append(frame[i]) }
        JSONWriter.appendASCII(",\"serverTime\":", to: &out)
        JSONWriter.appendNumber(serverTime, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"error","code":…,"message":…}`, plus `"index":N` (additive) for an element of
    /// a batch.
    public static func appendError(_ error: ProtocolError, index: Int? = nil, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"error\",\"code\":\"", to: &out)
        JSONWriter.appendASCII(error.code.name, to: &out)
        JSONWriter.appendASCII("\",\"message\":", to: &out)
        JSONWriter.appendString(error.message, to: &out)
        if let index {
            JSONWriter.appendASCII(",\"index\":", to: &out)
            JSONWriter.appendInteger(index, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The touchpad notice `{"type":"control","active":true,"backend":…}` |
    /// `{"type":"control","active":false,"reason":…}`: the server's control changed after
    /// `welcome` (docs/protocol.md, additive).
    public static func appendControlNotice(_ status: ControlContext.Status, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"control\",", to: &out)
        appendControlFields(status, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The touchpad notice `{"type":"held","buttons":["left"],"keys":["Control"],"until":…}`:
    /// what the server holds down on the computer for this connection, sent when it changed
    /// (docs/protocol.md, additive). `buttons` in `HeldSnapshot.buttonOrder`, `keys` (W3C
    /// names) in press order, both always present; `until` (page clock, ms) only when set.
    public static func appendHeld(_ held: HeldSnapshot, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"held\",\"buttons\":[", to: &out)
        var first = true
        for button in HeldSnapshot.buttonOrder where held.holds(button) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            JSONWriter.appendASCII(button.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        JSONWriter.appendASCII("],\"keys\":[", to: &out)
        for (i, key) in held.keys.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(key.w3cName, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        if let until = held.until {
            JSONWriter.appendASCII(",\"until\":", to: &out)
            JSONWriter.appendNumber(until, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `"active":true,"backend":…` or `"active":false,"reason":…`: `welcome.control` and the
    /// notice share them (and the desktop page's state).
    public static func appendControlFields(_ status: ControlContext.Status, to out: inout [UInt8]) {
        switch status {
        case .active(let backend):
            JSONWriter.appendASCII("\"active\":true,\"backend\":", to: &out)
            JSONWriter.appendString(backend, to: &out)
        case .inactive(let reason):
            JSONWriter.appendASCII("\"active\":false,\"reason\":", to: &out)
            JSONWriter.appendString(reason, to: &out)
        }
    }

    /// The observer notice `{"type":"session","session":S,"state":"open"|"closed"}`, with
    /// (additive, docs/protocol.md "Server identity") `"run":…` when `run` is given and
    /// `"name":…`, the device's name, when `name` is.
    public static func appendSessionNotice(
        session: String, open: Bool, run: String? = nil, name: String? = nil, to out: inout [UInt8]
    ) {
        JSONWriter.appendASCII("{\"type\":\"session\",\"session\":", to: &out)
        JSONWriter.appendString(session, to: &out)
        JSONWriter.appendASCII(open ? ",\"state\":\"open\"" : ",\"state\":\"closed\"", to: &out)
        if let run {
            JSONWriter.appendASCII(",\"run\":", to: &out)
            JSONWriter.appendString(run, to: &out)
        }
        if let name {
            JSONWriter.appendASCII(",\"name\":", to: &out)
            JSONWriter.appendString(name, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
