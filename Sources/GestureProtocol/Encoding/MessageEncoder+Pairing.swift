/// The pairing parts of server → page messages (additive, docs/protocol.md "Pairing").
extension MessageEncoder {
    /// `{"id":…,"name":…}`, with `"key":…` when the greeting carries the device key.
    static func appendDevice(_ device: DeviceGreeting, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"id\":", to: &out)
        JSONWriter.appendString(device.id, to: &out)
        JSONWriter.appendASCII(",\"name\":", to: &out)
        JSONWriter.appendString(device.name, to: &out)
        if let key = device.key {
            JSONWriter.appendASCII(",\"key\":", to: &out)
            JSONWriter.appendString(key, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"pairing","state":"waiting","device":{"id":…,"name":…}}`: a new device waits
    /// until the computer's user accepts it (`serve --confirm-pairing`); `"state":"closed"`:
    /// until pairing opens on the computer. Sent as the connection opens, before the answer to
    /// its `hello`.
    public static func appendPairingWaiting(device: DeviceGreeting, for wait: PairingWait, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"pairing\",\"state\":\"", to: &out)
        JSONWriter.appendASCII(wait.rawValue, to: &out)
        JSONWriter.appendASCII("\",\"device\":", to: &out)
        appendDevice(DeviceGreeting(id: device.id, name: device.name), to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"device","device":{"id":…,"name":…}}` (additive): the connection's device was
    /// renamed on the computer (`gesturepad devices rename`) while it was connected.
    public static func appendDeviceNotice(_ device: DeviceGreeting, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"device\",\"device\":", to: &out)
        appendDevice(DeviceGreeting(id: device.id, name: device.name), to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"move","to":"https","ticket":…}` (additive, docs/protocol.md "Moving to
    /// HTTPS"), sent sealed to a plain connection that proved itself to a server that now speaks
    /// TLS: the page opens the same address over https. `ticket` (a paired device's only) is a
    /// one-time credential that proves this device there once, and gives it a new key.
    public static func appendMove(ticket: String?, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"move\",\"to\":\"https\"", to: &out)
        if let ticket {
            JSONWriter.appendASCII(",\"ticket\":", to: &out)
            JSONWriter.appendString(ticket, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
