import GestureControl
import GestureEngine
import GesturePadYAML

/// The values of the `control:` section that are more than a number, a flag or a name
/// (docs/control.md).
extension ConfigReader {
    /// `[left, right, middle]`: the buttons of one-, two- and three-finger taps.
    mutating func tapButtons(_ node: YAMLNode, key: String) -> [HostButton]? {
        guard let list = node.sequence, (1...3).contains(list.count) else {
            add(node, "\(key) must be a list of 1 to 3 of left, right, middle; not \(describe(node))")
            return nil
        }
        var buttons: [HostButton] = []
        for item in list {
            guard let button = choice(item, key: key, HostButton.self) else { return nil }
            buttons.append(button)
        }
        return buttons
    }

    /// `left: Alt+Right` … per direction over `keys`; `none` (or an empty value) turns a
    /// direction off.
    mutating func swipeKeys(_ node: YAMLNode, key: String, into keys: inout [SwipeDirection: KeyCombination]) {
        guard let mapping = mapping(node, what: key) else { return }
        for (keyNode, value) in mapping {
            guard let name = keyName(keyNode, allowed: SwipeDirection.allCases.map(\.name), section: key),
                let direction = SwipeDirection.allCases.first(where: { $0.name == name })
            else { continue }
            if tagName(value) == .null || value.scalar?.string == "none" {
                keys[direction] = nil
                continue
            }
            guard let text = string(value, key: "\(key).\(name)") else { continue }
            guard let combination = KeyCombination(parsing: text) else {
                add(
                    value,
                    "\(key).\(name): '\(text)' is not a key combination such as Control+Alt+ArrowRight (W3C key names joined by +)"
                )
                continue
            }
            keys[direction] = combination
        }
    }
}
