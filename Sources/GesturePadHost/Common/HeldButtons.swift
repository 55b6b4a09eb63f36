/// The buttons a backend holds down on the computer, in press order: what a press or a release
/// changes (a press of a held button, a release of a free one change nothing and send nothing),
/// and what `releaseAll` lets go of, newest first. One rule for every backend (x11, uinput,
/// portal, wlroots; the touchpad's pointer is uinput's); `HeldKeys` is the same for keys.
///
/// Letting go of everything (the phone went away, control turned off), every backend releases
/// its buttons first, then its keys: a modifier is pressed before the button it modifies
/// (Control + click, Alt + drag), so that is the reverse of how they went down, and a drag ends
/// as the modifier held made it (a copy stays a copy).
struct HeldButtons<Code: Equatable & Sendable>: Sendable {
    private(set) var codes: [Code] = []

    var isEmpty: Bool { codes.isEmpty }

    /// Records `code` going down (`pressed`) or up; false when that changes nothing.
    mutating func change(_ code: Code, pressed: Bool) -> Bool {
        let index = codes.firstIndex(of: code)
        switch (pressed, index) {
        case (true, nil): codes.append(code)
        case (false, let index?): codes.remove(at: index)
        default: return false
        }
        return true
    }

    /// The newest button still held, taken off the record.
    mutating func popLast() -> Code? { codes.popLast() }

    mutating func removeAll() { codes.removeAll() }
}
