/// The desktop's own touchpad settings, as they apply to the phone with `--control touchpad`
/// (docs/control.md "The desktop's own touchpad"): the desktop's libinput applies them to the
/// virtual "GesturePad touchpad" as to a built-in one — tap to click above all, which decides
/// whether a tap on the phone clicks. Shown on the desktop page. A setting the desktop does not
/// say is nil (the device's default: libinput leaves tapping off).
public struct DesktopTouchpadSettings: Sendable, Hashable {
    /// The desktop they were read from ("GNOME", "KDE Plasma", "sway").
    public var desktop: String
    public var tapToClick: Bool?
    public var naturalScrolling: Bool?
    /// The pointer speed, -1 … 1 (libinput's acceleration speed).
    public var speed: Double?
    public var disableWhileTyping: Bool?
    /// Where the user changes them, in the desktop's words.
    public var changeWhere: String

    public init(
        desktop: String, tapToClick: Bool? = nil, naturalScrolling: Bool? = nil, speed: Double? = nil,
        disableWhileTyping: Bool? = nil, changeWhere: String
    ) {
        self.desktop = desktop
        self.tapToClick = tapToClick
        self.naturalScrolling = naturalScrolling
        self.speed = speed
        self.disableWhileTyping = disableWhileTyping
        self.changeWhere = changeWhere
    }
}
