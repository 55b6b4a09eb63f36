/// A keyboard or button message from the page (CONTROL.md "Page → server: keyboard and
/// buttons"), validated by the protocol layer.
public enum ControlCommand: Sendable, Hashable {
    /// Type this text (1–1,000 characters, no control characters but tab and newline).
    case text(String)
    /// Press and release `key` with `modifiers` held.
    case key(HostKey, modifiers: [NamedKey])
    /// A button of the page's button bar.
    case button(HostButton, ButtonCommand)
    /// Show (true) or hide (false) the spotlight around the pointer (`spotlight`, additive).
    case spotlight(Bool)
}

/// What a `button` message asks (`action`).
public enum ButtonCommand: String, Sendable, Hashable, CaseIterable {
    case click
    case down
    case up
}
