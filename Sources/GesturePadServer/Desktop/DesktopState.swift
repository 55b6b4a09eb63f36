import GestureControl
import GestureProtocol

/// What the desktop page shows, as the JSON of `GET /desktop/state` (docs/server.md "The desktop
/// page"): whether pairing is open and for how long, the link and its QR code, the devices (paired
/// and waiting, which are connected), what drives the computer, and the desktop's touchpad
/// settings. Pure: built from values.
public struct DesktopState: Sendable, Hashable {
    public var pairingOpen: Bool
    /// Seconds pairing stays open (nil: it does not close — `--confirm-pairing` — or is closed).
    public var secondsLeft: Int?
    /// Whether each new phone waits for the user's answer (`--confirm-pairing`).
    public var confirm: Bool
    /// The pairing link a phone opens (with its `#token=`), and its QR code's rows ("1" dark).
    public var link: String
    public var qrRows: [String]
    public var devices: [PairedDevice]
    public var connected: Set<String>
    /// What drives the computer: its backend, or why nothing does.
    public var control: ControlContext.Status
    /// The desktop's touchpad settings, when its desktop keeps some GesturePad can read.
    public var touchpad: DesktopTouchpadSettings?
    /// Whether they apply to the phone: the `touchpad` backend drives the computer.
    public var touchpadApplies: Bool

    public init(
        pairingOpen: Bool, secondsLeft: Int?, confirm: Bool, link: String, qrRows: [String], devices: [PairedDevice],
        connected: Set<String>, control: ControlContext.Status, touchpad: DesktopTouchpadSettings? = nil,
        touchpadApplies: Bool = false
    ) {
        self.touchpad = touchpad
        self.touchpadApplies = touchpadApplies
        self.pairingOpen = pairingOpen
        self.secondsLeft = secondsLeft
        self.confirm = confirm
        self.link = link
        self.qrRows = qrRows
        self.devices = devices
        self.connected = connected
        self.control = control
    }

    /// The rows of `matrix`, "1" for a dark module.
    public static func rows(of matrix: QRMatrix) -> [String] {
        (0..<matrix.width).map { y in String((0..<matrix.width).map { matrix.isDark(x: $0, y: y) ? "1" : "0" }) }
    }

    public var json: [UInt8] {
        var out: [UInt8] = []
        JSONWriter.appendASCII("{\"pairing\":{\"open\":", to: &out)
        JSONWriter.appendBool(pairingOpen, to: &out)
        if let secondsLeft {
            JSONWriter.appendASCII(",\"secondsLeft\":", to: &out)
            JSONWriter.appendInteger(secondsLeft, to: &out)
        }
        JSONWriter.appendASCII(",\"confirm\":", to: &out)
        JSONWriter.appendBool(confirm, to: &out)
        JSONWriter.appendASCII(",\"link\":", to: &out)
        JSONWriter.appendString(link, to: &out)
        JSONWriter.appendASCII(",\"qr\":[", to: &out)
        for (index, row) in qrRows.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(row, to: &out)
        }
        JSONWriter.appendASCII("]},\"devices\":[", to: &out)
        for (index, device) in devices.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "{"))
            let fields = [
                ("id", device.id), ("name", device.name), ("state", device.state.rawValue), ("paired", device.paired),
                ("lastSeen", device.lastSeen ?? ""),
            ]
            for (number, (name, value)) in fields.enumerated() {
                JSONWriter.appendASCII(number == 0 ? "\"\(name)\":" : ",\"\(name)\":", to: &out)
                JSONWriter.appendString(value, to: &out)
            }
            JSONWriter.appendASCII(",\"connected\":", to: &out)
            JSONWriter.appendBool(connected.contains(device.id), to: &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONWriter.appendASCII("],\"control\":{", to: &out)
        MessageEncoder.appendControlFields(control, to: &out)
        JSONWriter.appendASCII("}", to: &out)
        if let touchpad {
            JSONWriter.appendASCII(",\"touchpad\":{\"desktop\":", to: &out)
            JSONWriter.appendString(touchpad.desktop, to: &out)
            JSONWriter.appendASCII(",\"applies\":", to: &out)
            JSONWriter.appendBool(touchpadApplies, to: &out)
            let switches = [
                ("tapToClick", touchpad.tapToClick), ("naturalScrolling", touchpad.naturalScrolling),
                ("disableWhileTyping", touchpad.disableWhileTyping),
            ]
            for case (let name, let value?) in switches {
                JSONWriter.appendASCII(",\"\(name)\":", to: &out)
                JSONWriter.appendBool(value, to: &out)
            }
            if let speed = touchpad.speed, speed.isFinite {
                JSONWriter.appendASCII(",\"speed\":", to: &out)
                JSONWriter.appendNumber(speed, to: &out)
            }
            JSONWriter.appendASCII(",\"change\":", to: &out)
            JSONWriter.appendString(touchpad.changeWhere, to: &out)
            JSONWriter.appendASCII("}", to: &out)
        }
        JSONWriter.appendASCII("}", to: &out)
        return out
    }
}
