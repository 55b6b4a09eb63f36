/// The bounds of the settings more than one place sets: the page's `settings` message, the
/// configuration file's `control:` and the flags all check these.
extension ControlSettings {
    /// `speed` (`--speed`, `control.speed`, the page's sheet).
    public static let speedBound = NumberBound.from(0.1, to: 10)
    /// `scrollSpeed` (`control.scrollSpeed`, the page's sheet).
    public static let scrollSpeedBound = NumberBound.from(0.1, to: 10)
}
