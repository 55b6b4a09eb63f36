import GestureControl

/// The server's `media` and `media-art` messages (docs/protocol.md "Media").
extension MessageEncoder {
    /// `{"type":"media",…}` for `snapshot`, its position as at `now` (server ms).
    public static func appendMedia(_ snapshot: MediaSnapshot, now: Double, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"media\"", to: &out)
        if let unavailable = snapshot.unavailable {
            JSONWriter.appendASCII(",\"available\":false,\"why\":", to: &out)
            JSONWriter.appendString(unavailable.rawValue, to: &out)
            appendComputer(snapshot.computer, to: &out)
            out.append(UInt8(ascii: "}"))
            return
        }
        JSONWriter.appendASCII(",\"available\":true", to: &out)
        if let player = snapshot.player { field("player", player, to: &out) }
        JSONWriter.appendASCII(",\"players\":[", to: &out)
        for (index, player) in snapshot.players.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendASCII("{\"id\":", to: &out)
            JSONWriter.appendString(player.id, to: &out)
            JSONWriter.appendASCII(",\"name\":", to: &out)
            JSONWriter.appendString(player.name, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        field("status", snapshot.status.rawValue, to: &out)
        if let title = snapshot.title { field("title", title, to: &out) }
        if let artist = snapshot.artist { field("artist", artist, to: &out) }
        if let album = snapshot.album { field("album", album, to: &out) }
        if let length = snapshot.length { number("length", length.rounded(), to: &out) }
        number("position", snapshot.position(at: now).rounded(), to: &out)
        number("rate", snapshot.rate, to: &out)
        if let volume = snapshot.volume { number("volume", (volume * 1000).rounded() / 1000, to: &out) }
        for (name, can) in [("canSeek", snapshot.canSeek), ("canNext", snapshot.canNext), ("canPrevious", snapshot.canPrevious)] {
            JSONWriter.appendASCII(",\"\(name)\":", to: &out)
            JSONWriter.appendBool(can, to: &out)
        }
        if let art = snapshot.art { field("art", art.key, to: &out) }
        appendComputer(snapshot.computer, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `,"computer":{"volume":0.4,"muted":false}` when the computer's volume is known.
    private static func appendComputer(_ computer: MediaSnapshot.Computer?, to out: inout [UInt8]) {
        guard let computer else { return }
        JSONWriter.appendASCII(",\"computer\":{\"volume\":", to: &out)
        JSONWriter.appendNumber((min(max(computer.volume, 0), 1) * 1000).rounded() / 1000, to: &out)
        JSONWriter.appendASCII(",\"muted\":", to: &out)
        JSONWriter.appendBool(computer.muted, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `{"type":"media-art","art":KEY,"data":"data:image/…"}`.
    public static func appendMediaArt(_ art: MediaSnapshot.Art, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"media-art\"", to: &out)
        field("art", art.key, to: &out)
        field("data", art.dataURL, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A player event as a hook's JSON line (docs/outputs.md "Player events"):
    /// `{"type":"media","event":…,"player":…,"name":…,"status":…[,"title":…,"artist":…,
    /// "album":…,"length":…][,"time":"…"]}` (no newline). Not a message of the wire.
    public static func appendMediaEvent(_ event: MediaEvent, time: (some GestureLogTime)?, to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"media\"", to: &out)
        field("event", event.kind.name, to: &out)
        field("player", event.player, to: &out)
        field("name", event.name, to: &out)
        field("status", event.status.rawValue, to: &out)
        if let title = event.title { field("title", title, to: &out) }
        if let artist = event.artist { field("artist", artist, to: &out) }
        if let album = event.album { field("album", album, to: &out) }
        if let length = event.length { number("length", length.rounded(), to: &out) }
        if let time {
            JSONWriter.appendASCII(",\"time\":\"", to: &out)
            time.appendISO8601(into: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func field(_ name: String, _ value: String, to out: inout [UInt8]) {
        JSONWriter.appendASCII(",\"\(name)\":", to: &out)
        JSONWriter.appendString(value, to: &out)
    }

    private static func number(_ name: String, _ value: Double, to out: inout [UInt8]) {
        JSONWriter.appendASCII(",\"\(name)\":", to: &out)
        JSONWriter.appendNumber(value, to: &out)
    }
}
