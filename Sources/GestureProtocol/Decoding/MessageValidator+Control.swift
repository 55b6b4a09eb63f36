import GestureControl

/// The keyboard and button messages of CONTROL.md: `text`, `key`, `button`. Whether the
/// server controls the computer, and whether its backend can type a character, is the
/// session's business; here only the fields are judged.
extension MessageValidator {
    /// The most characters one `text` may hold (CONTROL.md).
    static let maxTextCharacters = 1_000

    func controlCommand(in s: Span<UInt8>) throws(ProtocolError) -> ControlCommand {
        switch type {
        case .text: return .text(try text(in: s))
        case .key: return try key(in: s)
        case .spotlight: return try spotlight(in: s)
        default: return try button(in: s)
        }
    }

    /// 1–1,000 characters; tab and newline are typed (a carriage return, alone or before a
    /// newline, is one newline), every other control character is refused.
    private func text(in s: Span<UInt8>) throws(ProtocolError) -> String {
        guard case .string(let token)? = fields.text else {
            throw fail(.text, fields.text == nil ? "is missing" : "must be a string")
        }
        var text = JSONStringDecoder.string(token, in: s)
        if text.unicodeScalars.contains("\r") {
            text = text.replacingCRLF()
        }
        guard !text.isEmpty else { throw fail(.text, "must not be empty") }
        guard text.count <= Self.maxTextCharacters else {
            throw fail(.text, "must be at most \(Self.maxTextCharacters) characters")
        }
        for scalar in text.unicodeScalars where !HostKey.isPrintable(scalar) && scalar != "\n" && scalar != "\t" {
            throw fail(.text, "must not hold control characters (U+\(scalar.hex))")
        }
        return text
    }

    /// `do`: `show` or `hide`.
    private func spotlight(in s: Span<UInt8>) throws(ProtocolError) -> ControlCommand {
        guard case .string(let token)? = fields.verb else {
            throw fail(.verb, fields.verb == nil ? "is missing" : "must be \"show\" or \"hide\"")
        }
        if JSONStringDecoder.equals(token, "show", in: s) { return .spotlight(true) }
        if JSONStringDecoder.equals(token, "hide", in: s) { return .spotlight(false) }
        throw fail(.verb, "must be \"show\" or \"hide\"")
    }

    /// A W3C key name and optional modifiers (`Shift`, `Control`, `Alt`, `Meta`).
    private func key(in s: Span<UInt8>) throws(ProtocolError) -> ControlCommand {
        guard case .string(let token)? = fields.key else {
            throw fail(.key, fields.key == nil ? "is missing" : "must be a string")
        }
        let name = JSONStringDecoder.string(token, in: s)
        guard let key = HostKey(w3cName: name) else {
            throw fail(.key, "names no key GesturePad can press: \"\(name.prefix(40))\"")
        }
        var modifiers: [NamedKey] = []
        switch fields.modifiers {
        case nil, .null?:
            break
        case .array(let start)?:
            modifiers = try modifierList(at: start, in: s)
        default:
            throw fail(.modifiers, "must be an array of \"Shift\", \"Control\", \"Alt\", \"Meta\"")
        }
        return .key(key, modifiers: modifiers)
    }

    private func modifierList(at start: Int, in s: Span<UInt8>) throws(ProtocolError) -> [NamedKey] {
        let list = try? Self.scanModifiers(at: start, in: s)
        guard let modifiers = list ?? nil else {
            throw fail(.modifiers, "must be an array of \"Shift\", \"Control\", \"Alt\", \"Meta\"")
        }
        return modifiers
    }

    /// The modifiers of the array at `start` (already validated JSON), or nil when an element
    /// is not one of the four names.
    private static func scanModifiers(at start: Int, in s: Span<UInt8>) throws(JSONSyntaxError) -> [NamedKey]? {
        var scanner = JSONScanner(index: start)
        var modifiers: [NamedKey] = []
        try scanner.expect(UInt8(ascii: "["), s, "expected '['")
        while true {
            scanner.skipWhitespace(s)
            if scanner.peek(s) == UInt8(ascii: "]") { return modifiers }
            guard case .string(let token) = try scanner.scanValue(s, depth: 2),
                let modifier = NamedKey.modifiers.first(where: { JSONStringDecoder.equals(token, $0.rawValue, in: s) })
            else { return nil }
            if !modifiers.contains(modifier) { modifiers.append(modifier) }
            scanner.skipWhitespace(s)
            if scanner.peek(s) == UInt8(ascii: ",") { scanner.index += 1 }
        }
    }

    /// `button` (`left`, `right`, `middle`) and `action` (`click`, `down`, `up`).
    private func button(in s: Span<UInt8>) throws(ProtocolError) -> ControlCommand {
        guard case .string(let buttonToken)? = fields.button,
            let button = HostButton.allCases.first(where: { JSONStringDecoder.equals(buttonToken, $0.rawValue, in: s) })
        else {
            throw fail(.button, fields.button == nil ? "is missing" : "must be \"left\", \"right\" or \"middle\"")
        }
        guard case .string(let actionToken)? = fields.action,
            let action = ButtonCommand.allCases.first(where: { JSONStringDecoder.equals(actionToken, $0.rawValue, in: s) })
        else {
            throw fail(.action, fields.action == nil ? "is missing" : "must be \"click\", \"down\" or \"up\"")
        }
        return .button(button, action)
    }
}

extension String {
    /// `\r\n` and a lone `\r` become `\n`.
    fileprivate func replacingCRLF() -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                out.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            out.append(scalar)
        }
        return String(out)
    }
}

extension Unicode.Scalar {
    /// The code point as at least four upper-case hex digits.
    var hex: String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The additive `settings` message: every field optional, each checked on its own.
extension MessageValidator {
    func settingsUpdate(in s: Span<UInt8>) throws(ProtocolError) -> SettingsUpdate {
        var update = SettingsUpdate()
        update.speed = try factor(.speed, ControlSettings.speedBound)
        update.scrollSpeed = try factor(.scrollSpeed, ControlSettings.scrollSpeedBound)
        switch fields.acceleration {
        case nil, .null?: break
        case .string(let token)?:
            guard let profile = AccelerationProfile.allCases.first(where: { JSONStringDecoder.equals(token, $0.rawValue, in: s) })
            else { throw fail(.acceleration, "must be \"adaptive\" or \"flat\"") }
            update.acceleration = profile
        default: throw fail(.acceleration, "must be \"adaptive\" or \"flat\"")
        }
        update.naturalScroll = try flag(.naturalScroll)
        update.tapToClick = try flag(.tapToClick)
        update.tapAndDrag = try flag(.tapAndDrag)
        update.dragLock = try flag(.dragLock)
        update.leftHanded = try flag(.leftHanded)
        update.kineticScrolling = try flag(.kineticScrolling)
        return update
    }

    private func factor(_ key: MessageFields.Key, _ bound: NumberBound) throws(ProtocolError) -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .number(let n, _)? where bound.contains(n): return n
        default: throw fail(key, "must be a number \(bound.text)")
        }
    }

    private func flag(_ key: MessageFields.Key) throws(ProtocolError) -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw fail(key, "must be true or false")
        }
    }
}
