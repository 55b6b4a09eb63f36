/// A change `gesturepad devices` makes to the device list (docs/server.md "Pairing"). Pure:
/// `DeviceStore.update` runs it under the lock, and the running server is told afterwards.
public enum DeviceEdit: Sendable, Hashable {
    case rename(String, to: String)
    case forget(String)
    case forgetAll
    /// Accept a device waiting to pair.
    case allow(String)
    /// Refuse a device waiting to pair.
    case deny(String)
}

/// Why an edit cannot be made, as one line for the user.
public struct DeviceEditError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

extension DeviceList {
    /// Makes `edit`; returns the line that says what was done.
    public mutating func apply(_ edit: DeviceEdit) throws(DeviceEditError) -> String {
        switch edit {
        case .rename(let selector, let proposed):
            let device = try resolve(selector, among: devices)
            guard let name = DeviceName.sanitized(proposed) else {
                throw DeviceEditError("the new name is empty")
            }
            guard uniqueName(name, for: device.id) == name else {
                throw DeviceEditError("another device is named \(Self.quoted(name))")
            }
            update(device.id) { $0.name = name }
            return "Renamed \(Self.quoted(device.name)) to \(Self.quoted(name))."
        case .forget(let selector):
            let device = try resolve(selector, among: devices)
            remove(device.id)
            return device.state == .paired
                ? "Forgot \(Self.quoted(device.name)): it must scan the code again to pair."
                : "Refused \(Self.quoted(device.name)), which was waiting to pair."
        case .forgetAll:
            let count = devices.count
            removeAll()
            return count == 1 ? "Forgot 1 device." : "Forgot \(count) devices."
        case .allow(let selector):
            let device = try resolve(selector, among: devices.filter { $0.state == .waiting }, waiting: true)
            update(device.id) { $0.state = .allowed }
            return "Allowed \(Self.quoted(device.name))."
        case .deny(let selector):
            let device = try resolve(selector, among: devices.filter { $0.state == .waiting }, waiting: true)
            remove(device.id)
            return "Refused \(Self.quoted(device.name))."
        }
    }

    /// The one device of `candidates` that `selector` names (see `matching`).
    private func resolve(_ selector: String, among candidates: [PairedDevice], waiting: Bool = false) throws(DeviceEditError)
        -> PairedDevice
    {
        let found = DeviceList(devices: candidates).matching(selector)
        switch found.count {
        case 1:
            return found[0]
        case 0:
            let what = waiting ? "waits to pair" : "is paired"
            throw DeviceEditError("no device named \(Self.quoted(selector)) \(what) (gesturepad devices lists them)")
        default:
            let names = found.map { "\(Self.quoted($0.name)) (id \($0.id))" }.joined(separator: ", ")
            throw DeviceEditError(
                "\(Self.quoted(selector)) names \(found.count) devices: \(names); say more of the name, or the id")
        }
    }

    /// A name as the user would type it in a shell: in single quotes.
    static func quoted(_ name: String) -> String {
        "'" + name.replacing("'", with: "'\\''") + "'"
    }
}
