import FoundationEssentials

/// A wall-clock instant (ms since the Unix epoch, UTC), taken when the server handed an event
/// to a sink. Cheap to take on the service thread; formatted later on a writer thread.
public struct WallTime: Sendable, Hashable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var epochMilliseconds: Int64

    public init(epochMilliseconds: Int64) {
        self.epochMilliseconds = epochMilliseconds
    }

    /// Now.
    public static func now() -> WallTime {
        WallTime(epochMilliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// The civil UTC date and time of this instant.
    var components: (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64, ms: Int64) {
        let ms = epochMilliseconds
        var days = ms / 86_400_000
        var rest = ms % 86_400_000
        if rest < 0 { rest += 86_400_000; days -= 1 }
        // Howard Hinnant's days → civil algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000)
    }

    /// `2026-11-22T05:48:44.123Z`.
    public func appendISO8601(into out: inout [UInt8]) {
        let c = components
        Self.appendPadded(c.year, 4, into: &out)
        out.append(UInt8(ascii: "-"))
        Self.appendPadded(c.month, 2, into: &out)
        out.append(UInt8(ascii: "-"))
        Self.appendPadded(c.day, 2, into: &out)
        out.append(UInt8(ascii: "T"))
        appendClock(into: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `05:48:44.123` (UTC).
    public func appendClock(into out: inout [UInt8]) {
        let c = components
        Self.appendPadded(c.hour, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        Self.appendPadded(c.minute, 2, into: &out)
        out.append(UInt8(ascii: ":"))
        Self.appendPadded(c.second, 2, into: &out)
        out.append(UInt8(ascii: "."))
        Self.appendPadded(c.ms, 3, into: &out)
    }

    /// The ISO-8601 text.
    public var iso8601: String {
        var out: [UInt8] = []
        appendISO8601(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendPadded(_ value: Int64, _ width: Int, into out: inout [UInt8]) {
        let digits = String(value).utf8
        if digits.count < width {
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
        }
        out.append(contentsOf: digits)
    }
}
