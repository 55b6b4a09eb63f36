/// A pointer button of the computer.
public enum HostButton: String, Sendable, Hashable, CaseIterable {
    case left
    case right
    case middle

    /// The X11 core button number (1 left, 2 middle, 3 right).
    public var x11Number: Int {
        switch self {
        case .left: 1
        case .middle: 2
        case .right: 3
        }
    }

    /// The other hand's button: left and right swap, middle stays.
    public var mirrored: HostButton {
        switch self {
        case .left: .right
        case .right: .left
        case .middle: .middle
        }
    }
}
