import GestureControl
import GestureEngine
import GestureProtocol

/// The words of the terminal log's default lines: short, a person's terms, with the one figure
/// that matters (`tap ×2`, `pointer → 149 px`, `typed 11 characters`, `right click`).
enum ActivityWords {
    /// `tap`, `tap ×2`, `tap, 2 fingers`.
    static func tap(count: Int, fingers: Int) -> String {
        (count > 1 ? "tap ×\(count)" : "tap") + Self.fingers(fingers)
    }

    /// `, 3 fingers` (nothing for one).
    static func fingers(_ n: Int) -> String { n > 1 ? ", \(n) fingers" : "" }

    /// `→ 149 px`: the dominant direction of a translation and its length.
    static func travel(dx: Double, dy: Double) -> String {
        let length = (dx * dx + dy * dy).squareRoot()
        guard length.isFinite else { return "" }
        let arrow = abs(dx) >= abs(dy) ? (dx < 0 ? "←" : "→") : (dy < 0 ? "↑" : "↓")
        return length < 1 ? "0 px" : "\(arrow) \(Int(length.rounded())) px"
    }

    /// `×1.40`.
    static func scale(_ value: Double) -> String {
        guard value.isFinite else { return "×?" }
        let hundredths = Int((value * 100).rounded())
        let fraction = String(hundredths % 100)
        return "×\(hundredths / 100).\(fraction.count == 1 ? "0" + fraction : fraction)"
    }

    /// `+30°`, `-12°`.
    static func angle(_ degrees: Double) -> String {
        guard degrees.isFinite else { return "?°" }
        let whole = Int(degrees.rounded())
        return (whole > 0 ? "+" : "") + "\(whole)°"
    }

    /// `0.8 s` from milliseconds.
    static func seconds(_ ms: Double) -> String {
        guard ms.isFinite, ms >= 0 else { return "? s" }
        let tenths = Int((ms / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// A page command, in the page feed's words: `typed 11 characters`, `Control+C` (a
    /// shortcut's letter in capitals, as menus write it), `Enter`, `right click`,
    /// `left button down`.
    static func command(_ command: ControlCommand) -> String {
        switch command {
        case .text(let text):
            let n = text.count
            return "typed \(n) character\(n == 1 ? "" : "s")"
        case .key(let key, let modifiers):
            let combination = KeyCombination(modifiers: modifiers, key: key).description
            guard !modifiers.isEmpty, case .character(let scalar) = key else { return combination }
            let letter = String(scalar)
            return String(combination.dropLast(letter.count)) + letter.uppercased()
        case .button(let button, .click):
            return "\(button.rawValue) click"
        case .button(let button, .down):
            return "\(button.rawValue) button down"
        case .button(let button, .up):
            return "\(button.rawValue) button up"
        case .spotlight(let on):
            return on ? "spotlight on" : "spotlight off"
        }
    }

    /// What the silence rule let go of, and why: `released the left button: no message from the
    /// phone for 10.0 s (control.releaseAfterSilence)`.
    static func release(silence: Double, released: [HostAction]) -> String {
        var names: [String] = []
        var fingers = 0
        for action in released {
            switch action {
            case .button(let button, .up): names.append("the \(button.rawValue) button")
            case .key(let key, .up): names.append(key.w3cName)
            case .contact(let contact) where contact.phase == .cancel: fingers += 1
            case .spotlight(false): names.append("the spotlight")
            case .button, .key, .motion, .wheel, .wheelStop, .text, .contact, .touchSurface, .spotlight: break
            }
        }
        if fingers > 0 { names.append(fingers == 1 ? "a finger on the touchpad" : "\(fingers) fingers on the touchpad") }
        let what = names.isEmpty ? "what the phone held" : names.joined(separator: ", ")
        return "released \(what): no message from the phone for \(seconds(silence)) (control.releaseAfterSilence)"
    }
}
