import GestureEngine
import GesturePadSettings

/// A hook's argv template filled in for an event, as the hook starts: placeholders become the
/// event's values written as the JSON on its stdin writes them.
extension ArgvTemplate {
    /// The argument for `event`. A placeholder the event does not have expands to nothing
    /// (`check-config` refuses such rules, so this only happens for hand-built rules).
    public func expand(for event: GestureEvent) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let name, let integer): out += Self.text(of: name, in: event, integer: integer) ?? ""
            }
        }
        return out
    }

    /// The text of a common or own field of `event`; `nil` when it has none of that name.
    public static func text(of field: String, in event: GestureEvent, integer: Bool = false) -> String? {
        func number(_ d: Double) -> String {
            integer ? String(Int64(d.rounded())) : GestureJSON.numberText(d)
        }
        switch field {
        case "gesture": return event.gesture.name
        case "phase": return event.phase.name
        case "t": return number(event.t)
        case "x": return number(event.x)
        case "y": return number(event.y)
        case "pointers": return String(event.pointers)
        default: break
        }
        var found: String?
        event.forEachField { name, value in
            guard found == nil, name.description == field else { return }
            switch value {
            case .number(let d): found = number(d)
            case .integer(let i): found = String(i)
            case .bool(let b): found = b ? "true" : "false"
            case .name(let s): found = s
            }
        }
        return found
    }
}
