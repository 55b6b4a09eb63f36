import GestureControl
import GestureEngine
import Yams

/// The `control:` section: how a touchpad drives the computer (docs/control.md).
extension ConfigReader {
    static let controlKeys = [
        "backend", "speed", "acceleration", "naturalScroll", "scrollSpeed", "tapToClick", "tapAndDrag", "dragLock",
        "dragLockTimeout", "tapButtons", "leftHanded", "pinchZoom", "zoomStep", "swipeKeys", "releaseAfterSilence",
    ]
    static let swipeKeyNames = SwipeDirection.allCases.map(\.name)

    mutating func readControl(_ node: Node, into control: inout ControlSection) {
        guard let mapping = mapping(node, what: "control") else { return }
        var s = control.settings
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: Self.controlKeys, section: "control") else { continue }
            let path = "control.\(name)"
            switch name {
            case "backend":
                control.backend = choice(value, key: path, ControlMode.self)
            case "speed": positive(value, key: path).map { s.speed = $0 }
            case "acceleration": choice(value, key: path, AccelerationProfile.self).map { s.acceleration = $0 }
            case "naturalScroll": boolean(value, key: path).map { s.naturalScroll = $0 }
            case "scrollSpeed": positive(value, key: path).map { s.scrollSpeed = $0 }
            case "tapToClick": boolean(value, key: path).map { s.tapToClick = $0 }
            case "tapAndDrag": boolean(value, key: path).map { s.tapAndDrag = $0 }
            case "dragLock": boolean(value, key: path).map { s.dragLock = $0 }
            case "dragLockTimeout": positive(value, key: path).map { s.dragLockTimeout = $0 }
            case "leftHanded": boolean(value, key: path).map { s.leftHanded = $0 }
            case "pinchZoom": boolean(value, key: path).map { s.pinchZoom = $0 }
            case "zoomStep":
                if let step = number(value, key: path) {
                    if step > 1 { s.zoomStep = step } else { add(value, "\(path) must be > 1, not \(step)") }
                }
            case "releaseAfterSilence": positive(value, key: path).map { s.releaseAfterSilence = $0 }
            case "tapButtons": readTapButtons(value).map { s.tapButtons = $0 }
            case "swipeKeys": readSwipeKeys(value, into: &s.swipeKeys)
            default: break
            }
        }
        control.settings = s
    }

    /// `[left, right, middle]`: the buttons of one-, two- and three-finger taps.
    private mutating func readTapButtons(_ node: Node) -> [HostButton]? {
        guard let list = node.sequence, (1...3).contains(list.count) else {
            add(node, "control.tapButtons must be a list of 1 to 3 of left, right, middle; not \(describe(node))")
            return nil
        }
        var buttons: [HostButton] = []
        for item in list {
            guard let button = choice(item, key: "control.tapButtons", HostButton.self) else { return nil }
            buttons.append(button)
        }
        return buttons
    }

    /// `left: Alt+Right` … per direction; `none` (or an empty value) turns a direction off.
    private mutating func readSwipeKeys(_ node: Node, into keys: inout [SwipeDirection: KeyCombination]) {
        guard let mapping = mapping(node, what: "control.swipeKeys") else { return }
        for (key, value) in mapping {
            guard let name = keyName(key, allowed: Self.swipeKeyNames, section: "control.swipeKeys"),
                let direction = SwipeDirection.allCases.first(where: { $0.name == name })
            else { continue }
            if tagName(value) == .null || value.scalar?.string == "none" {
                keys[direction] = nil
                continue
            }
            guard let text = string(value, key: "control.swipeKeys.\(name)") else { continue }
            guard let combination = KeyCombination(parsing: text) else {
                add(
                    value,
                    "control.swipeKeys.\(name): '\(text)' is not a key combination such as Control+Alt+ArrowRight (W3C key names joined by +)"
                )
                continue
            }
            keys[direction] = combination
        }
    }

    private mutating func positive(_ node: Node, key: String) -> Double? {
        guard let value = number(node, key: key) else { return nil }
        guard value > 0 else {
            add(node, "\(key) must be > 0, not \(value)")
            return nil
        }
        return value
    }

    private mutating func choice<T: RawRepresentable & CaseIterable>(_ node: Node, key: String, _ type: T.Type) -> T?
    where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard let text = node.scalar?.string, tagName(node) == .str, let value = T(rawValue: text) else {
            add(node, "\(key) must be one of \(names.joined(separator: ", ")), not \(describe(node))")
            return nil
        }
        return value
    }
}
