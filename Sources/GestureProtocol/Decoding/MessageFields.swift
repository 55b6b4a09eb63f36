/// The fields of one message object that the protocol knows, as scanned (not yet validated).
/// Unknown keys are skipped; a repeated key keeps its last value (as `JSON.parse` does).
struct MessageFields {
    /// A key the protocol knows.
    enum Key: String, CaseIterable {
        case type, `protocol`, role, width, height, dpr, client
        case id, x, y, t, pointerType, pressure, buttons
        case text, key, modifiers, button, action
        case speed, acceleration, naturalScroll, scrollSpeed, tapToClick, tapAndDrag, dragLock, leftHanded
        case kineticScrolling
        /// `media` (additive): `do`, and the fields some commands take.
        case verb = "do"
        case position, volume, player

        /// The key as spelled on the wire.
        var name: String { rawValue }

        /// The known key a string token spells, if any (a byte compare for plain keys).
        static func match(_ token: JSONString, in s: Span<UInt8>) -> Key? {
            guard !token.hasEscapes else {
                let text = JSONStringDecoder.string(token, in: s)
                return Key.allCases.first { $0.name == text }
            }
            let length = token.end - token.start
            guard length > 0 else { return nil }
            let candidate: Key
            switch (length, s[token.start]) {
            case (1, UInt8(ascii: "x")): return .x
            case (1, UInt8(ascii: "y")): return .y
            case (1, UInt8(ascii: "t")): return .t
            case (2, UInt8(ascii: "i")): candidate = .id
            case (2, UInt8(ascii: "d")): candidate = .verb
            case (6, UInt8(ascii: "v")): candidate = .volume
            case (6, UInt8(ascii: "p")): candidate = .player
            case (3, UInt8(ascii: "d")): candidate = .dpr
            case (3, UInt8(ascii: "k")): candidate = .key
            case (4, UInt8(ascii: "t")): candidate = s[token.start + 1] == UInt8(ascii: "y") ? .type : .text
            case (4, UInt8(ascii: "r")): candidate = .role
            case (5, UInt8(ascii: "w")): candidate = .width
            case (6, UInt8(ascii: "h")): candidate = .height
            case (6, UInt8(ascii: "c")): candidate = .client
            case (6, UInt8(ascii: "b")): candidate = .button
            case (6, UInt8(ascii: "a")): candidate = .action
            case (9, UInt8(ascii: "m")): candidate = .modifiers
            case (5, UInt8(ascii: "s")): candidate = .speed
            case (12, UInt8(ascii: "a")): candidate = .acceleration
            case (13, UInt8(ascii: "n")): candidate = .naturalScroll
            case (11, UInt8(ascii: "s")): candidate = .scrollSpeed
            case (10, UInt8(ascii: "t")): candidate = s[token.start + 3] == UInt8(ascii: "T") ? .tapToClick : .tapAndDrag
            case (8, UInt8(ascii: "d")): candidate = .dragLock
            case (10, UInt8(ascii: "l")): candidate = .leftHanded
            case (16, UInt8(ascii: "k")): candidate = .kineticScrolling
            case (7, UInt8(ascii: "b")): candidate = .buttons
            case (8, UInt8(ascii: "p")):
                switch s[token.start + 2] {
                case UInt8(ascii: "o"): candidate = .protocol
                case UInt8(ascii: "s"): candidate = .position
                default: candidate = .pressure
                }
            case (11, UInt8(ascii: "p")): candidate = .pointerType
            default: return nil
            }
            return JSONStringDecoder.equals(token, candidate.name, in: s) ? candidate : nil
        }
    }

    var type: JSONValue?
    var `protocol`: JSONValue?
    var role: JSONValue?
    var width: JSONValue?
    var height: JSONValue?
    var dpr: JSONValue?
    var client: JSONValue?
    var id: JSONValue?
    var x: JSONValue?
    var y: JSONValue?
    var t: JSONValue?
    var pointerType: JSONValue?
    var pressure: JSONValue?
    var buttons: JSONValue?
    var text: JSONValue?
    var key: JSONValue?
    var modifiers: JSONValue?
    var button: JSONValue?
    var action: JSONValue?
    var speed: JSONValue?
    var acceleration: JSONValue?
    var naturalScroll: JSONValue?
    var scrollSpeed: JSONValue?
    var tapToClick: JSONValue?
    var tapAndDrag: JSONValue?
    var dragLock: JSONValue?
    var leftHanded: JSONValue?
    var kineticScrolling: JSONValue?
    var verb: JSONValue?
    var position: JSONValue?
    var volume: JSONValue?
    var player: JSONValue?

    subscript(key: Key) -> JSONValue? {
        get {
            switch key {
            case .type: type
            case .protocol: `protocol`
            case .role: role
            case .width: width
            case .height: height
            case .dpr: dpr
            case .client: client
            case .id: id
            case .x: x
            case .y: y
            case .t: t
            case .pointerType: pointerType
            case .pressure: pressure
            case .buttons: buttons
            case .text: text
            case .key: self.key
            case .modifiers: modifiers
            case .button: button
            case .action: action
            case .speed: speed
            case .acceleration: acceleration
            case .naturalScroll: naturalScroll
            case .scrollSpeed: scrollSpeed
            case .tapToClick: tapToClick
            case .tapAndDrag: tapAndDrag
            case .dragLock: dragLock
            case .leftHanded: leftHanded
            case .kineticScrolling: kineticScrolling
            case .verb: verb
            case .position: position
            case .volume: volume
            case .player: player
            }
        }
        set {
            switch key {
            case .type: type = newValue
            case .protocol: `protocol` = newValue
            case .role: role = newValue
            case .width: width = newValue
            case .height: height = newValue
            case .dpr: dpr = newValue
            case .client: client = newValue
            case .id: id = newValue
            case .x: x = newValue
            case .y: y = newValue
            case .t: t = newValue
            case .pointerType: pointerType = newValue
            case .pressure: pressure = newValue
            case .buttons: buttons = newValue
            case .text: text = newValue
            case .key: self.key = newValue
            case .modifiers: modifiers = newValue
            case .button: button = newValue
            case .action: action = newValue
            case .speed: speed = newValue
            case .acceleration: acceleration = newValue
            case .naturalScroll: naturalScroll = newValue
            case .scrollSpeed: scrollSpeed = newValue
            case .tapToClick: tapToClick = newValue
            case .tapAndDrag: tapAndDrag = newValue
            case .dragLock: dragLock = newValue
            case .leftHanded: leftHanded = newValue
            case .kineticScrolling: kineticScrolling = newValue
            case .verb: verb = newValue
            case .position: position = newValue
            case .volume: volume = newValue
            case .player: player = newValue
            }
        }
    }

    /// Scans a message object into its known fields; `scanner` is at `{`, `depth` the nesting
    /// of the object (1 for a single message, 2 inside a batch).
    static func scan(_ scanner: inout JSONScanner, _ s: Span<UInt8>, depth: Int) throws(JSONSyntaxError) -> MessageFields {
        var fields = MessageFields()
        try scanner.expect(UInt8(ascii: "{"), s, "expected '{'")
        scanner.skipWhitespace(s)
        if scanner.peek(s) == UInt8(ascii: "}") {
            scanner.index += 1
            return fields
        }
        while true {
            scanner.skipWhitespace(s)
            let keyToken = try scanner.scanString(s)
            scanner.skipWhitespace(s)
            try scanner.expect(UInt8(ascii: ":"), s, "expected ':'")
            scanner.skipWhitespace(s)
            let value = try scanner.scanValue(s, depth: depth)
            if let key = Key.match(keyToken, in: s) { fields[key] = value }
            scanner.skipWhitespace(s)
            if scanner.peek(s) == UInt8(ascii: ",") {
                scanner.index += 1
                continue
            }
            try scanner.expect(UInt8(ascii: "}"), s, "expected ',' or '}'")
            return fields
        }
    }
}
