/// A key of the computer's keyboard, by meaning rather than by keycode: a named key (W3C
/// `KeyboardEvent.key` names such as `Enter` or `AudioVolumeUp`) or one printable character.
/// Backends turn it into what they need (an X11 keysym, an evdev code).
public enum HostKey: Sendable, Hashable {
    case named(NamedKey)
    /// One printable character (`a`, `A`, `é`, `中`, ` `).
    case character(Unicode.Scalar)

    /// Parses a W3C `KeyboardEvent.key` value: a named key, or exactly one printable
    /// character (one Unicode scalar that is not a control character). `nil` otherwise.
    public init?(w3cName: String) {
        if let named = NamedKey(rawValue: w3cName) {
            self = .named(named)
            return
        }
        let scalars = w3cName.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first, HostKey.isPrintable(scalar) else { return nil }
        self = .character(scalar)
    }

    /// The W3C name of the key (the character itself for a character key).
    public var w3cName: String {
        switch self {
        case .named(let key): key.rawValue
        case .character(let scalar): String(Character(scalar))
        }
    }

    /// True for scalars that can be typed: not a control (C0, DEL, C1) nor a surrogate or
    /// non-character code point.
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return false }
        if (0xFDD0...0xFDEF).contains(v) || v & 0xFFFE == 0xFFFE { return false }
        return true
    }
}
