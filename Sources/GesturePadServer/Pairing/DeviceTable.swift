import FoundationEssentials
import Glibc

/// What `gesturepad devices` prints: one row per device (name, kind — touchpad or observer —,
/// paired, last seen, connected now), times in the local time zone, waiting devices with the
/// command that accepts them.
public enum DeviceTable {
    /// The lines for `list`; `connected` holds the ids of the devices connected now, nil when
    /// no server runs. Times are in `timeZone`, or the system's local time when nil.
    public static func lines(_ list: DeviceList, connected: Set<String>?, timeZone: TimeZone? = nil) -> [String] {
        guard !list.devices.isEmpty else {
            return [
                "No phone is paired. Run gesturepad pair, then open the address it prints (or scan its QR code) on the phone."
            ]
        }
        var rows = [["NAME", "KIND", "PAIRED", "LAST SEEN", "CONNECTED"]]
        for device in list.devices {
            let now: String
            let kind = device.kind.rawValue
            switch device.state {
            case .paired:
                now = connected.map { $0.contains(device.id) ? "yes" : "no" } ?? "no (no server running)"
                rows.append([device.name, kind, local(device.paired, timeZone), local(device.lastSeen, timeZone), now])
            case .waiting:
                let allow = "waits to pair: gesturepad devices allow \(DeviceList.quoted(device.name))"
                rows.append([device.name, kind, "—", "—", allow])
            case .allowed:
                rows.append([device.name, kind, "—", "—", "allowed, pairing now"])
            }
        }
        // Every column but the last is padded to its widest cell, two spaces apart.
        let padded = rows[0].count - 1
        var widths = [Int](repeating: 0, count: padded)
        for row in rows {
            for column in 0..<padded { widths[column] = max(widths[column], row[column].count) }
        }
        return rows.map { row in
            (0..<padded).map { row[$0] + String(repeating: " ", count: widths[$0] - row[$0].count + 2) }.joined()
                + row[padded]
        }
    }

    /// An ISO 8601 time as "2026-11-25 17:20" in `timeZone` (nil: the system's local time, as
    /// libc's `localtime_r` knows it); "—" when absent or unreadable.
    static func local(_ stamp: String?, _ timeZone: TimeZone?) -> String {
        guard let stamp, let date = try? Date(stamp, strategy: .iso8601) else { return "—" }
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if let timeZone {
            time += time_t(timeZone.secondsFromGMT(for: date))
            gmtime_r(&time, &parts)
        } else {
            localtime_r(&time, &parts)
        }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }
}
