/// What one connection holds down on the computer, as its page is told it (the `held`
/// message, docs/protocol.md): the buttons, the keys in press order, and the moment the
/// mapper lets go of its touch button by itself.
///
/// `ControlMapper.writeHeld(into:)` writes it into a value the caller keeps: written again, it
/// reuses its storage and allocates nothing.
public struct HeldSnapshot: Sendable, Equatable {
    /// The order the buttons are listed in.
    public static let buttonOrder: [HostButton] = ButtonMask.order

    private var buttons = ButtonMask()
    /// The keys held (modifiers too), in press order.
    public private(set) var keys: [HostKey] = []
    /// Page clock (ms) at which the mapper lets go of the button its touch gestures hold, if
    /// no touch comes first: the end of a tap's wait for a drag (tap `t` + `multiTapInterval`)
    /// or of a drag lock (lift `t` + `dragLockTimeout`). Nil when nothing listed goes up by
    /// itself (it waits for a lift, a bar's `up`, a mouse button), or when something else
    /// (the bar, a mouse) holds that button too.
    public var until: Double?

    /// Nothing held.
    public init() {}

    /// A snapshot of the given buttons and keys (tests, the fuzzer's expectations).
    public init(buttons: [HostButton] = [], keys: [HostKey] = [], until: Double? = nil) {
        for button in buttons { insert(button) }
        self.keys = keys
        self.until = until
    }

    /// Whether `button` is held.
    public func holds(_ button: HostButton) -> Bool {
        buttons.contains(ButtonMask(button))
    }

    /// True when nothing is held.
    public var isEmpty: Bool { buttons.isEmpty && keys.isEmpty }

    /// Nothing held, the key list's storage kept.
    public mutating func removeAll() {
        buttons = []
        keys.removeAll(keepingCapacity: true)
        until = nil
    }

    mutating func insert(_ button: HostButton) {
        buttons.insert(ButtonMask(button))
    }

    mutating func append(_ key: HostKey) {
        keys.append(key)
    }
}
