import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol

/// A hook's argv template filled in for an event, as the hook starts: placeholders become the
/// event's values written as the JSON on its stdin writes them.
extension ArgvTemplate {
    /// The argument for `event`. A placeholder the event does not have expands to nothing
    /// (`check-config` refuses such rules, so this only happens for hand-built rules).
    public func expand(for event: GestureEvent) -> String {
        expand { name, integer in Self.text(of: name, in: event, integer: integer) }
    }

    /// The argument with each placeholder replaced by `value(name, integer)` (nothing for nil).
    private func expand(_ value: (String, Bool) -> String?) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let text): out += text
            case .field(let name, let integer): out += value(name, integer) ?? ""
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

    /// The argument for player event `event` (docs/outputs.md "Player events").
    public func expand(for event: MediaEvent) -> String {
        expand { name, integer in Self.text(of: name, in: event, integer: integer) }
    }

    /// The text of a placeholder of a player event (`MediaEventFields.placeholders`); `nil`
    /// for any other name, or a length the player does not give.
    public static func text(of field: String, in event: MediaEvent, integer: Bool = false) -> String? {
        switch field {
        case "event": return event.kind.name
        case "status": return event.status.rawValue
        case "length":
            guard let length = event.length else { return nil }
            return integer ? String(Int64(length.rounded())) : GestureJSON.numberText(length.rounded())
        default: return nil
        }
    }
}
