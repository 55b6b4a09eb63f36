import Foundation

/// What `gesturepad devices` prints: one row per device (name, paired, last seen, connected
/// now), times in the local time zone, waiting devices with the command that accepts them.
public enum DeviceTable {
    /// The lines for `list`; `connected` holds the ids of the devices connected now, nil when
    /// no server runs.
    public static func lines(_ list: DeviceList, connected: Set<String>?, timeZone: TimeZone = .current) -> [String] {
        guard !list.devices.isEmpty else {
            return ["No phone is paired. Open the address gesturepad url prints (or scan its QR code) on the phone."]
        }
        var rows = [["NAME", "PAIRED", "LAST SEEN", "CONNECTED"]]
        for device in list.devices {
            let now: String
            switch device.state {
            case .paired:
                now = connected.map { $0.contains(device.id) ? "yes" : "no" } ?? "no (no server running)"
                rows.append([device.name, local(device.paired, timeZone), local(device.lastSeen, timeZone), now])
            case .waiting:
                let allow = "waits to pair: gesturepad devices allow \(DeviceList.quoted(device.name))"
                rows.append([device.name, "—", "—", allow])
            case .allowed:
                rows.append([device.name, "—", "—", "allowed, pairing now"])
            }
        }
        var widths = [Int](repeating: 0, count: 3)
        for row in rows {
            for column in 0..<3 { widths[column] = max(widths[column], row[column].count) }
        }
        return rows.map { row in
            (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count + 2) }.joined() + row[3]
        }
    }

    /// An ISO 8601 time as "2026-11-25 17:20" in `timeZone`; "—" when absent or unreadable.
    static func local(_ stamp: String?, _ timeZone: TimeZone) -> String {
        guard let stamp, let date = ISO8601DateFormatter().date(from: stamp) else { return "—" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
