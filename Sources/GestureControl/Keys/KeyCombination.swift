/// A key combination such as `Control+Alt+ArrowRight`: modifiers held, one key pressed and
/// released, modifiers released in reverse order. Written as W3C key names joined by `+`;
/// the last name is the key, those before it must be modifiers. Short aliases are accepted
/// in configuration files: `Ctrl`, `Super` / `Win` / `Cmd` (Meta), `Left` / `Right` / `Up` /
/// `Down` (arrows), `Esc`, `Return`, `Space`, `PgUp` / `PgDn`, `Del`.
public struct KeyCombination: Sendable, Hashable, CustomStringConvertible {
    public var modifiers: [NamedKey]
    public var key: HostKey

    public init(modifiers: [NamedKey] = [], key: HostKey) {
        self.modifiers = modifiers
        self.key = key
    }

    /// Parses `Control+Alt+ArrowRight`; `nil` with no key, an unknown name, or a non-modifier
    /// before the last `+`. A combination of one modifier alone (`Meta`) is that key.
    public init?(parsing text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
            String($0).trimmingSpaces()
        }
        // `Control++` names the plus key.
        var names = parts
        if text.hasSuffix("++") {
            names = Array(parts.dropLast(2)) + ["+"]
        }
        guard let last = names.last, !last.isEmpty, let key = KeyCombination.key(named: last) else { return nil }
        var modifiers: [NamedKey] = []
        for name in names.dropLast() {
            guard case .named(let m)? = KeyCombination.key(named: name), m.isModifier else { return nil }
            if !modifiers.contains(m) { modifiers.append(m) }
        }
        self.init(modifiers: modifiers, key: key)
    }

    /// The press / release sequence of this combination.
    public var actions: [HostAction] {
        var out = modifiers.map { HostAction.key(.named($0), .down) }
        out.append(.key(key, .down))
        out.append(.key(key, .up))
        out += modifiers.reversed().map { HostAction.key(.named($0), .up) }
        return out
    }

    public var description: String {
        (modifiers.map(\.rawValue) + [key.w3cName]).joined(separator: "+")
    }

    private static let aliases: [String: String] = [
        "ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt", "meta": "Meta",
        "super": "Meta", "win": "Meta", "cmd": "Meta", "left": "ArrowLeft", "right": "ArrowRight",
        "up": "ArrowUp", "down": "ArrowDown", "esc": "Escape", "return": "Enter", "space": " ",
        "pgup": "PageUp", "pgdn": "PageDown", "del": "Delete",
    ]

    private static func key(named name: String) -> HostKey? {
        if let key = HostKey(w3cName: name) { return key }
        if let alias = aliases[name.lowercased()] { return HostKey(w3cName: alias) }
        // Case-insensitive named keys (`enter`, `pageup`).
        if let named = NamedKey.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) {
            return .named(named)
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        guard self != " " else { return self }
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
