import Foundation
import GestureEngine

/// Test support: reads an event's fields by protocol name and matches expectations.
enum EventFields {
    static func value(of e: GestureEvent, _ key: String) -> Any? {
        switch key {
        case "gesture": return e.gesture.name
        case "phase": return e.phase.name
        case "t": return e.t
        case "x": return e.x
        case "y": return e.y
        case "pointers": return e.pointers
        default:
            var found: Any?
            e.forEachField { name, value in
                guard "\(name)" == key else { return }
                switch value {
                case .number(let d): found = d
                case .integer(let i): found = i
                case .bool(let b): found = b
                case .name(let s): found = s
                }
            }
            return found
        }
    }

    static func matches(_ want: Any, _ got: Any?) -> Bool {
        if let pair = want as? [NSNumber], pair.count == 2 {
            guard let g = number(got) else { return false }
            return abs(g - pair[0].doubleValue) <= pair[1].doubleValue
        }
        if let s = want as? String { return (got as? String) == s }
        if let b = got as? Bool { return (want as? Bool) == b }
        if let n = want as? NSNumber {
            guard let g = number(got) else { return false }
            return g == n.doubleValue
        }
        return false
    }

    static func number(_ v: Any?) -> Double? {
        if let d = v as? Double { return d }
        if let i = v as? Int { return Double(i) }
        return nil
    }
}
