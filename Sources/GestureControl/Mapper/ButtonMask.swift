/// A set of computer buttons as bits (left 1, right 2, middle 4 — the page's `buttons`
/// order for primary / secondary / auxiliary).
struct ButtonMask: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let left = ButtonMask(rawValue: 1)
    static let right = ButtonMask(rawValue: 2)
    static let middle = ButtonMask(rawValue: 4)

    /// The order buttons are pressed in.
    static let order: [HostButton] = [.left, .right, .middle]

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init(_ button: HostButton) {
        switch button {
        case .left: self = .left
        case .right: self = .right
        case .middle: self = .middle
        }
    }

    /// The computer buttons of a `PointerEvent.buttons` bitmask (1 primary, 2 secondary,
    /// 4 auxiliary; other bits ignored), primary and secondary swapped when left-handed.
    init(pointerButtons: Int, leftHanded: Bool) {
        var mask = ButtonMask()
        if pointerButtons & 1 != 0 { mask.insert(leftHanded ? .right : .left) }
        if pointerButtons & 2 != 0 { mask.insert(leftHanded ? .left : .right) }
        if pointerButtons & 4 != 0 { mask.insert(.middle) }
        self = mask
    }
}
