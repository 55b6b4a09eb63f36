import GestureControl

/// The `command` notice (additive, docs/protocol.md "What the computer was told"): a page's
/// `text`, `key` or `button` message the server carried out, for its own page and every
/// observer. Typed text is never repeated: only how many characters it had.
extension MessageEncoder {
    /// `{"type":"command","session":S,"command":"text","characters":8}`,
    /// `{…,"command":"key","key":"c","modifiers":["Control"]}` or
    /// `{…,"command":"button","button":"right","action":"click"}` or
    /// `{…,"command":"spotlight","do":"show"}`.
    public static func appendCommandNotice(_ command: ControlCommand, sessionLiteral: [UInt8], to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"command\",\"session\":", to: &out)
        out.append(contentsOf: sessionLiteral)
        switch command {
        case .text(let text):
            JSONWriter.appendASCII(",\"command\":\"text\",\"characters\":", to: &out)
            JSONWriter.appendInteger(text.count, to: &out)
        case .key(let key, let modifiers):
            JSONWriter.appendASCII(",\"command\":\"key\",\"key\":", to: &out)
            JSONWriter.appendString(key.w3cName, to: &out)
            JSONWriter.appendASCII(",\"modifiers\":[", to: &out)
            for (i, modifier) in modifiers.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(modifier.rawValue, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .button(let button, let action):
            JSONWriter.appendASCII(",\"command\":\"button\",\"button\":\"", to: &out)
            JSONWriter.appendASCII(button.rawValue, to: &out)
            JSONWriter.appendASCII("\",\"action\":\"", to: &out)
            JSONWriter.appendASCII(action.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        case .spotlight(let on):
            JSONWriter.appendASCII(",\"command\":\"spotlight\",\"do\":", to: &out)
            JSONWriter.appendASCII(on ? "\"show\"" : "\"hide\"", to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A page's `media` command the server passed to the players, told the same way:
    /// `{"type":"command","session":S,"command":"media","do":"next"}`, with `position`,
    /// `volume` or `player` for the commands that carry one (`watch` is not told).
    public static func appendMediaNotice(_ command: MediaCommand, sessionLiteral: [UInt8], to out: inout [UInt8]) {
        JSONWriter.appendASCII("{\"type\":\"command\",\"session\":", to: &out)
        out.append(contentsOf: sessionLiteral)
        JSONWriter.appendASCII(",\"command\":\"media\",\"do\":\"", to: &out)
        JSONWriter.appendASCII(command.name, to: &out)
        out.append(UInt8(ascii: "\""))
        switch command {
        case .seek(let position):
            JSONWriter.appendASCII(",\"position\":", to: &out)
            JSONWriter.appendNumber(position.rounded(), to: &out)
        case .volume(let volume), .computerVolume(let volume):
            JSONWriter.appendASCII(",\"volume\":", to: &out)
            JSONWriter.appendNumber((volume * 1000).rounded() / 1000, to: &out)
        case .player(let id):
            JSONWriter.appendASCII(",\"player\":", to: &out)
            JSONWriter.appendString(id, to: &out)
        case .watch, .playPause, .play, .pause, .stop, .next, .previous, .computerMute:
            break
        }
        out.append(UInt8(ascii: "}"))
    }
}
